import Link from 'next/link';
import { BUSINESS_SORTS, type BusinessSort, type WorkspaceBusiness, type WorkspaceBusinessPage, type WorkspaceBusinessesQuery } from '@/lib/bff/workspace';
import { BreakableEmail } from '../ui/breakable-email';
import { When } from '../ui/when';
import { businessName } from './format';
import { SORT_LABEL as COLUMN } from './sort-labels';

/** The /businesses URL of a query (only what differs from the defaults), so every state has its own address. */
export function businessesHref(q: WorkspaceBusinessesQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') params.set(k, String(v));
  const text = params.toString();
  return text ? `/businesses?${text}` : '/businesses';
}

interface Props {
  page: WorkspaceBusinessPage;
  query: WorkspaceBusinessesQuery;
}

/** A header that sorts by its column: the sorted one says so (aria-sort) and a second activation reverses it. */
function SortHeader({ column, page, query }: { column: BusinessSort; page: WorkspaceBusinessPage; query: WorkspaceBusinessesQuery }) {
  const active = page.sort === column;
  const next = active && page.dir === 'asc' ? 'desc' : active ? 'asc' : column === 'activity' || column === 'submitted' || column === 'progress' ? 'desc' : 'asc';
  const href = businessesHref({ ...query, sort: column, dir: next, page: undefined });
  return (
    <th scope="col" aria-sort={active ? (page.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
      <Link href={href} className="ws-sort">
        {COLUMN[column]}
        <span className="visually-hidden">, sort {next === 'asc' ? 'ascending' : 'descending'}</span>
        <span aria-hidden="true" className="ws-sort-mark">
          {active ? (page.dir === 'asc' ? ' ▲' : ' ▼') : ' ↕'}
        </span>
      </Link>
    </th>
  );
}

function Progress({ b }: { b: WorkspaceBusiness }) {
  const percent = b.application?.progress_percent;
  if (percent === null || percent === undefined) return <span className="muted">—</span>;
  return (
    <span className="ws-progress">
      <progress max={100} value={percent} aria-label={`${businessName(b)}: ${percent}% answered`} />
      <span>{`${percent}%`}</span>
    </span>
  );
}

/** The businesses of one page of the table, each linking to its page and its intake application. */
export function BusinessesTable({ page, query }: Props) {
  return (
    <table className="table stacked stacked-wide ws-table">
      <caption className="visually-hidden">
        Businesses, sorted by {COLUMN[page.sort].toLowerCase()} {page.dir === 'asc' ? 'ascending' : 'descending'}
      </caption>
      <thead>
        <tr>
          {BUSINESS_SORTS.map((c) => (
            <SortHeader key={c} column={c} page={page} query={query} />
          ))}
          <th scope="col">
            <span className="visually-hidden">Intake application</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {page.items.map((b) => (
          <tr key={b.id}>
            <td data-label="Business">
              <Link href={`/businesses/${encodeURIComponent(b.id)}`}>{businessName(b)}</Link>
            </td>
            <td data-label="Contact">
              {b.contact_name ?? <span className="muted">—</span>}
              {b.contact_email && (
                <div className="muted ws-email">
                  <BreakableEmail email={b.contact_email} />
                </div>
              )}
            </td>
            <td data-label="Stage">{b.stage?.name ?? <span className="muted">Not known yet</span>}</td>
            <td data-label="Application">
              {b.application?.status?.label ?? <span className="muted">No status</span>}
              {b.invitation && <div className="muted">Client invitation {b.invitation.state}</div>}
            </td>
            <td data-label="Progress">
              <Progress b={b} />
            </td>
            <td data-label="Submitted">
              {b.application?.submitted_at ? <When iso={b.application.submitted_at} dateOnly /> : <span className="muted">Not yet</span>}
            </td>
            <td data-label="Last activity">
              {b.last_activity_at ? <When iso={b.last_activity_at} dateOnly /> : <span className="muted">—</span>}
            </td>
            <td>
              {b.application && (
                <Link href={`/businesses/${encodeURIComponent(b.id)}/application`} prefetch={false}>
                  Open application<span className="visually-hidden"> of {businessName(b)}</span>
                </Link>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
