import { StageTransitionInput } from '@/lib/bff/businesses';
import { BusinessStageTransitionResult } from '@/lib/portal';
import { preconditionFailedReply } from '@/server/http/conflict-reply';
import { BusinessParams } from '@/server/businesses/params';
import { readBusinessStatus } from '@/server/businesses/status';
import { businessView, stageTransitionView } from '@/server/businesses/views';
import { route } from '@/server/http/route';
import { etagHeader, requireIdempotencyKey, requireIfMatch } from '@/server/http/params';
import { isPortalError, portalRequest, routes } from '@/server/portal';

// POST /api/businesses/[businessId]/stage-transitions – move the business to another stage; a 412 comes back with the business as it is now
export const POST = route(
  {
    roles: ['staff'],
    params: BusinessParams,
    body: StageTransitionInput,
    audit: { operation: 'business.stage_transition', object: ({ params }) => ({ type: 'business', id: params.businessId }) },
  },
  async ({ params, body, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const idempotencyKey = requireIdempotencyKey(req);
    try {
      const res = await portalRequest({
        method: 'POST',
        path: routes.businessStageTransitions(params.businessId),
        schema: BusinessStageTransitionResult,
        body,
        ifMatch,
        idempotencyKey,
        signal: req.signal,
      });
      upstream.requestId = res.requestId;
      const etag = res.etag ?? '';
      return { body: { transition: stageTransitionView(res.data, etag) }, headers: etagHeader(etag) };
    } catch (e) {
      if (!isPortalError(e) || !e.fromUpstream || e.status !== 412) throw e;
      // Someone moved or changed the business first: show them where it is now.
      upstream.requestId = e.requestId;
      const current = await readBusinessStatus(params.businessId, req.signal);
      return preconditionFailedReply(e, businessView(current.data, current.etag ?? ''), current.etag);
    }
  },
);
