import 'server-only';
import { z } from 'zod';
import { api } from '@/lib/api/endpoints';
import { csvDocument, type CsvValue } from '@/lib/exports/csv';
import { safeNamePart } from '@/lib/exports/entry-names';
import { WorkspaceBusinessesQuery } from '@/lib/bff/workspace';
import { FundingMatchPage, MatchesQuery, type FundingMatch } from '@/lib/portal';
import { route } from '@/server/http/route';
import { ProjectParams } from '@/server/http/path-params';
import { contentDisposition, portalRequest } from '@/server/portal';
import { readProject } from '@/server/projects/read';
import { listWorkspaceDeals } from '@/server/read-model/deal-list';
import { listWorkspaceBusinesses } from '@/server/read-model/queries';

/**
 * CSV exports (DESIGN.md §10) of what staff see in a table: the businesses table with its current search,
 * filters and sort (every page of it), the deals list, and a project's matches with their filters. The
 * whole file is made before the reply starts, so a failed read is an error reply, not half a file.
 */

const today = () => new Date().toISOString().slice(0, 10);

function csvReply(name: string, header: readonly string[], rows: readonly (readonly CsvValue[])[]) {
  return new Response(csvDocument(header, rows), {
    status: 200,
    headers: { 'Content-Type': 'text/csv; charset=utf-8; header=present', 'Content-Disposition': contentDisposition(name), 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' },
  });
}

/** The table's query without its paging: the export holds every matching row. */
const BusinessesCsvQuery = WorkspaceBusinessesQuery.omit({ page: true, page_size: true });
// Few reads of many rows: each read of the table counts and orders every matching row again.
const ROWS_PER_READ = 20_000;

// GET /api/workspace/businesses/csv – the businesses table as CSV: q, stage, status, progress, sort, dir as on screen
const businessesCsv = route(api.workspace.businessesCsv.GET, { roles: ['staff'], query: BusinessesCsvQuery }, async ({ query, db }) => {
  const rows: CsvValue[][] = [];
  for (let page = 1; ; page++) {
    const read = await listWorkspaceBusinesses(db, { ...query, page, page_size: ROWS_PER_READ });
    for (const b of read.items) {
      rows.push([
        b.name,
        b.contact_name,
        b.contact_email,
        b.pipeline?.name,
        b.stage?.name,
        b.application?.status?.label,
        b.application?.progress_percent,
        b.application?.submitted_at,
        b.invitation?.state,
        b.last_activity_at,
        b.is_sample ? 'yes' : 'no',
        b.id,
      ]);
    }
    if (page * ROWS_PER_READ >= read.total || read.items.length === 0) break;
  }
  const header = ['Business', 'Contact', 'Contact email', 'Pipeline', 'Stage', 'Application status', 'Progress %', 'Submitted at', 'Invitation', 'Last activity', 'Sample', 'Business id'];
  return csvReply(`businesses – ${today()}.csv`, header, rows);
});

// GET /api/deals/csv – every deal, newest first, with the business it was made for (the deals page's list)
const dealsCsv = route(api.dealsCsv.GET, { roles: ['staff'] }, async ({ db }) => {
  const rows: CsvValue[][] = [];
  for (let page = 1; ; page++) {
    const read = await listWorkspaceDeals(db, page, ROWS_PER_READ);
    for (const d of read.items) rows.push([d.name, d.business?.name, d.for, d.stage, d.status, d.created_at, d.is_sample ? 'yes' : 'no', d.id]);
    if (page * ROWS_PER_READ >= read.total || read.items.length === 0) break;
  }
  return csvReply(`deals – ${today()}.csv`, ['Deal', 'Business', 'For', 'Stage', 'Status', 'Created at', 'Sample', 'Deal id'], rows);
});

const MatchesCsvQuery = MatchesQuery.pick({ fit: true, product_kind: true }).strict();
const range = (r: { min: number; max: number } | null, unit = '') => (r === null ? null : `${r.min}${unit}–${r.max}${unit}`);

function matchRow(m: FundingMatch): CsvValue[] {
  const met = m.criteria.filter((c) => c.status === 'met').length;
  return [
    m.recipient.name,
    m.product.name,
    m.product.kind,
    m.score,
    m.fit,
    `${m.amount_range.min}–${m.amount_range.max} ${m.amount_range.currency}`,
    range(m.rate_range, '%'),
    range(m.term_months),
    `${met} of ${m.criteria.length}`,
    m.criteria.filter((c) => c.status !== 'met').map((c) => `${c.label}: ${c.message}`).join('; '),
    m.documents.filter((d) => d.status === 'missing').map((d) => d.label).join('; '),
    m.decision,
    m.deal?.id,
    m.stale ? 'yes' : 'no',
    m.id,
  ];
}

// GET /api/projects/[projectId]/matches/csv – the latest run's matches, best first, as CSV (fit, product_kind as on screen)
const matchesCsv = route(api.projectMatchesCsv.GET, { roles: ['staff', 'reviewer'], params: ProjectParams, query: MatchesCsvQuery }, async ({ params, query }) => {
  const project = (await readProject(params.projectId)).data;
  const rows: CsvValue[][] = [];
  let cursor: string | null = null;
  do {
    const res: { data: z.infer<typeof FundingMatchPage> } = await portalRequest({
      url: project.matches_url,
      schema: FundingMatchPage,
      query: { ...query, page_size: 100, ...(cursor ? { cursor } : {}) },
    });
    rows.push(...res.data.items.map(matchRow));
    cursor = res.data.next_cursor;
  } while (cursor);
  const header = ['Funder', 'Product', 'Product kind', 'Score', 'Fit', 'Amount', 'Rate', 'Term (months)', 'Criteria met', 'Criteria not met or unknown', 'Documents missing', 'Decision', 'Deal id', 'Stale', 'Match id'];
  return csvReply(`${safeNamePart(project.name, 'Project', 80)} – matches – ${today()}.csv`, header, rows);
});

/** The route handlers of the CSV exports: each route file under app/api re-exports its methods. */
export const csvRoutes = { businesses: { GET: businessesCsv }, deals: { GET: dealsCsv }, matches: { GET: matchesCsv } };
