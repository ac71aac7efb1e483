import { FundingMatchPage, MatchesQuery } from '@/lib/portal';
import { ProjectParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { portalRequest } from '@/server/portal';
import { linksOfProject, rememberMatches } from '@/server/projects/read';
import { matchView } from '@/server/projects/views';

// GET /api/projects/[projectId]/matches – the latest completed run's matches, best first (fit, product_kind, page_size, cursor)
export const GET = route({ roles: ['staff', 'reviewer'], params: ProjectParams, query: MatchesQuery }, async ({ params, query, req, upstream }) => {
  const { matches } = await linksOfProject(params.projectId, req.signal);
  const res = await portalRequest({ url: matches, schema: FundingMatchPage, query, signal: req.signal });
  upstream.requestId = res.requestId;
  rememberMatches(params.projectId, res.data.items);
  return { body: { items: res.data.items.map(matchView), next_cursor: res.data.next_cursor, previous_cursor: res.data.previous_cursor } };
});
