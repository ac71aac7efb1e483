import { FundingMatch, FundingMatchPage, LIMITS, MatchesQuery, type Fit, type ProductKind } from '@/lib/portal';
import { decide, isStale, matchEtag, matchOf, matchView, runIsStale, runMatches } from '../funding/matches';
import { projectOf } from '../funding/projects';
import { fundingState } from '../funding/state';
import type { MatchRunRec } from '../funding/types';
import type { Ctx, Reply, RouteDef } from '../http/context';
import { checkIfMatch } from '../http/etag';
import { notFound } from '../http/errors';
import { keysetPage } from '../http/paging';
import type { Sandbox } from '../sandbox';

/*
 * Matches (DESIGN.md §6): a project's matches_url pages its latest completed run's matches, a run's
 * matches_url that run's; both in rank order (score descending, stable tie-break), filterable by fit and
 * product_kind, with cursors bound to the run and the filters. A match is read, shortlisted or dismissed
 * (If-Match: the match's ETag, its revision quoted, so a page's `revision` serves). Reads need projects:read,
 * decisions projects:write.
 */

/** A page of a run's matches (an empty page when there is no run yet). */
function matchesPage(sb: Sandbox, run: MatchRunRec | undefined, query: Record<string, unknown>): Reply {
  const filter = { fit: query.fit as Fit | undefined, product_kind: query.product_kind as ProductKind | undefined };
  const items = run ? runMatches(sb, run, filter) : [];
  const page = keysetPage({
    sb,
    items,
    keyOf: (m) => m.rank,
    scope: `matches:${run?.id ?? 'none'}:${filter.fit ?? ''}:${filter.product_kind ?? ''}`,
    pageSize: (query.page_size as number | undefined) ?? LIMITS.paging.default,
    cursor: query.cursor as string | undefined,
    backward: true,
  });
  const stale = run ? runIsStale(sb, run) : false;
  return { status: 200, body: { ...page, items: page.items.map((m) => matchView(sb, m, stale)) } };
}

const MATCH_ETAG = 'The match revision, quoted (revision 3: "3"): the `revision` of a page of matches is a valid If-Match.';

/** Shortlist or dismiss, with If-Match (428 when missing, 412 when stale). */
function decision(ctx: Ctx, to: 'shortlisted' | 'dismissed'): Reply {
  const { sb, params } = ctx;
  const m = matchOf(sb, params.id!);
  checkIfMatch(ctx.header('if-match'), matchEtag(m), true);
  decide(sb, m, to);
  return { status: 200, headers: { ETag: matchEtag(m) }, body: matchView(sb, m, isStale(sb, m)) };
}

export const matchRoutes: RouteDef[] = [
  {
    // GET projects/{id}/matches/ – the latest completed run's matches by score
    method: 'GET',
    path: 'projects/:id/matches/',
    access: ['projects:read'],
    query: MatchesQuery,
    summary: 'List the matches of the project’s latest completed run, best first, optionally by fit and product_kind',
    tag: 'projects',
    response: FundingMatchPage,
    handle: ({ sb, params, query }) => {
      const p = projectOf(sb, params.id!);
      const run = p.latest_completed_run_id ? fundingState(sb).runs[p.latest_completed_run_id] : undefined;
      return matchesPage(sb, run, query);
    },
  },
  {
    // GET match-runs/{id}/matches/ – one run's matches by score (empty until it completes)
    method: 'GET',
    path: 'match-runs/:id/matches/',
    access: ['projects:read'],
    query: MatchesQuery,
    summary: 'List a match run’s matches, best first, optionally by fit and product_kind (empty until the run completes)',
    tag: 'projects',
    response: FundingMatchPage,
    handle: ({ sb, params, query }) => {
      const run = fundingState(sb).runs[params.id!];
      if (!run) throw notFound('match run');
      return matchesPage(sb, run, query);
    },
  },
  {
    // GET matches/{id}/ – one match
    method: 'GET',
    path: 'matches/:id/',
    access: ['projects:read'],
    summary: 'Read a funding match',
    tag: 'projects',
    response: FundingMatch,
    etag: MATCH_ETAG,
    handle: ({ sb, params }) => {
      const m = matchOf(sb, params.id!);
      return { status: 200, headers: { ETag: matchEtag(m) }, body: matchView(sb, m, isStale(sb, m)) };
    },
  },
  {
    // POST matches/{id}/shortlist/ – shortlist a match (If-Match)
    method: 'POST',
    path: 'matches/:id/shortlist/',
    ifMatch: 'required',
    access: ['projects:write'],
    idempotency: 'optional',
    summary: 'Shortlist a match (If-Match: the match ETag, its revision quoted as in a page; 409 when already shortlisted)',
    tag: 'projects',
    response: FundingMatch,
    etag: MATCH_ETAG,
    handle: (ctx) => decision(ctx, 'shortlisted'),
  },
  {
    // POST matches/{id}/dismiss/ – dismiss a match (If-Match)
    method: 'POST',
    path: 'matches/:id/dismiss/',
    ifMatch: 'required',
    access: ['projects:write'],
    idempotency: 'optional',
    summary: 'Dismiss a match (If-Match: the match ETag, its revision quoted as in a page; 409 when already dismissed or when a deal was made for it)',
    tag: 'projects',
    response: FundingMatch,
    etag: MATCH_ETAG,
    handle: (ctx) => decision(ctx, 'dismissed'),
  },
];
