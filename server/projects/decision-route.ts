import 'server-only';
import { api } from '@/lib/api/endpoints';
import type { MatchDecisionVerb } from '@/lib/bff/projects';
import { FundingMatch } from '@/lib/portal';
import { conflictResponse, withConflictReply } from '@/server/http/conflict-reply';
import { optionalIdempotencyKey, requireIfMatch } from '@/server/http/headers';
import { MatchParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { PortalError, portalRequest, routes } from '@/server/portal';
import { readProjectMatch } from './read';
import { matchTag, matchView } from './project-views';

const PATHS = { shortlist: routes.matchShortlist, dismiss: routes.matchDismiss } as const;

/**
 * POST /api/projects/[projectId]/matches/[matchId]/shortlist | dismiss (If-Match: the match view's etag).
 * The match is read first (it must be this project's), so a decision quoting an older revision is refused
 * here with the match as it is now, and the Portal gets the match's own ETag; its 412 (a change in between)
 * comes back the same way.
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
      const read = await readProjectMatch(params.projectId, params.matchId);
      if (quoted !== matchTag(read.data)) {
        const stale = new PortalError({ status: 412, code: 'precondition_failed', message: 'The match changed since you read it.', requestId: read.requestId });
        return conflictResponse(stale, { current: matchView(read.data), etag: matchTag(read.data) });
      }
      const decide = async () => {
        const res = await portalRequest({
          method: 'POST',
          path: PATHS[verb](params.matchId),
          schema: FundingMatch,
          ifMatch: read.etag ?? '',
          idempotencyKey,
        });
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
