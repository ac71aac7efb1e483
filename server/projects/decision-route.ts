import 'server-only';
import { api } from '@/lib/api/endpoints';
import type { MatchDecisionVerb } from '@/lib/bff/projects';
import { FundingMatch } from '@/lib/portal';
import { withConflictReply } from '@/server/http/conflict-reply';
import { optionalIdempotencyKey, requireIfMatch } from '@/server/http/headers';
import { MatchParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { portalRequest, routes } from '@/server/portal';
import { checkMatchOfProject, readProjectMatch, rememberMatches } from './read';
import { matchTag, matchView } from './project-views';

const PATHS = { shortlist: routes.matchShortlist, dismiss: routes.matchDismiss } as const;

/**
 * POST /api/projects/[projectId]/matches/[matchId]/shortlist | dismiss (If-Match: the match view's etag).
 * A match's ETag follows its revision alone (DESIGN.md §6), so the etag of the page the person decided on goes
 * upstream as it is, with no read of the match first; the Portal's 412 (a change since that page) comes back
 * with the match as it is now.
 */
export function decisionRoute(verb: MatchDecisionVerb) {
  return route(
    verb === 'shortlist' ? api.matchShortlist.POST : api.matchDismiss.POST,
    {
      roles: ['staff'],
      params: MatchParams,
      audit: { operation: `match.${verb}`, object: ({ params }) => ({ type: 'match', id: params.matchId }) },
    },
    async ({ params, req }) => {
      const quoted = requireIfMatch(req);
      const idempotencyKey = optionalIdempotencyKey(req);
      await checkMatchOfProject(params.projectId, params.matchId);
      const decide = async () => {
        const res = await portalRequest({
          method: 'POST',
          path: PATHS[verb](params.matchId),
          schema: FundingMatch,
          ifMatch: quoted,
          idempotencyKey,
        });
        rememberMatches(params.projectId, [res.data]);
        return { body: { match: matchView(res.data) } };
      };
      const current = async () => {
        const now = await readProjectMatch(params.projectId, params.matchId);
        return { current: matchView(now.data), etag: matchTag(now.data) };
      };
      return withConflictReply(decide, current);
    },
  );
}
