import type { Metadata } from 'next';
import Link from 'next/link';
import { apiUrl } from '@/lib/api/client';
import { workspaceApi } from '@/lib/api/endpoints';
import { DEFAULT_BUSINESS_PAGE_SIZE, WorkspaceBusinessesQuery } from '@/lib/bff/workspace';
import { appDb } from '@/server/db/app-db';
import { guardPage, type PageProps } from '@/server/http/page-guard';
import { listWorkspaceBusinesses } from '@/server/read-model/queries';
import { awaitFirstPass } from '@/server/read-model/scheduler';
import { BusinessesFilters } from '@/components/workspace/businesses-filters';
import { BusinessesTable, businessesHref } from '@/components/workspace/businesses-table';
import { FreshnessNote } from '@/components/workspace/freshness-note';
import '@/components/businesses/businesses.css';
import '@/components/workspace/workspace.css';

export const metadata: Metadata = { title: 'Businesses' };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

// /businesses – every business from the workspace's read model: searched, filtered, sorted and paged, the state in the URL
export default async function BusinessesPage({ searchParams }: PageProps) {
  const raw = await searchParams;
  await guardPage({ path: '/businesses', query: raw, roles: ['staff'] });
  const asked = Object.fromEntries(Object.keys(WorkspaceBusinessesQuery.shape).map((k) => [k, first(raw[k])]));
  const parsed = WorkspaceBusinessesQuery.safeParse(asked);
  // A hand-edited URL that does not parse shows the default view rather than an error page.
  const query = parsed.success ? parsed.data : {};
  const db = await appDb();
  await awaitFirstPass(db);
  const now = new Date();
  const page = await listWorkspaceBusinesses(db, query, now);
  const pages = Math.max(1, Math.ceil(page.total / page.page_size));
  const filtered = !!(query.q || query.stage || query.status || query.progress);
  return (
    <section aria-labelledby="businesses-title" className="ws-page">
      <div className="biz-list-head">
        <h1 id="businesses-title">Businesses</h1>
        <Link href="/businesses/board">Pipeline board</Link>
        <Link href="/businesses/new" className="biz-button-link">
          Create a business
        </Link>
      </div>
      <FreshnessNote freshness={page.freshness} now={now.toISOString()} canRefresh />
      {/* Keyed by the query: a header's sort link or Back must show its own choices, not the last form's. */}
      <BusinessesFilters key={businessesHref(query)} query={query} stages={page.stages} statuses={page.statuses} />
      <p role="status" className="ws-count">
        {page.total === 0
          ? filtered
            ? 'No business matches these filters.'
            : 'No businesses yet.'
          : `${page.total} ${page.total === 1 ? 'business' : 'businesses'}${filtered ? ' match' : ''}; page ${page.page} of ${pages}.`}
      </p>
      {page.items.length > 0 && (
        <p>
          <a href={apiUrl(workspaceApi.businessesCsv.GET, { query: { q: query.q, stage: query.stage, status: query.status, progress: query.progress, sort: query.sort, dir: query.dir } })}>
            Download {filtered ? 'these businesses' : 'every business'} as sorted here (CSV)
          </a>
        </p>
      )}
      {page.items.length > 0 && <BusinessesTable page={page} query={query} />}
      {pages > 1 && (
        <nav aria-label="Pages" className="pager">
          {page.page > 1 ? <Link href={businessesHref({ ...query, page: page.page - 1 })}>← Previous page</Link> : <span />}
          {page.page < pages && <Link href={businessesHref({ ...query, page: page.page + 1 })}>Next page →</Link>}
        </nav>
      )}
      {page.page_size !== DEFAULT_BUSINESS_PAGE_SIZE && <p className="muted">{page.page_size} businesses a page.</p>}
    </section>
  );
}
