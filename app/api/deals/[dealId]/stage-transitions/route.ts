import { StageTransitionInput } from '@/lib/bff/businesses';
import { Deal } from '@/lib/portal';
import { preconditionFailedReply } from '@/server/http/conflict-reply';
import { DealParams } from '@/server/deals/params';
import { readDeal } from '@/server/deals/read-deal';
import { dealView } from '@/server/deals/views';
import { route } from '@/server/http/route';
import { etagHeader, requireIdempotencyKey, requireIfMatch } from '@/server/http/params';
import { isPortalError, portalRequest, routes } from '@/server/portal';

// POST /api/deals/[dealId]/stage-transitions – move the deal to another stage; a 412 comes back with the deal as it is now
export const POST = route(
  {
    roles: ['staff'],
    params: DealParams,
    body: StageTransitionInput,
    audit: { operation: 'deal.stage_transition', object: ({ params }) => ({ type: 'deal', id: params.dealId }) },
  },
  async ({ params, body, req, upstream, auditObject }) => {
    const ifMatch = requireIfMatch(req);
    const idempotencyKey = requireIdempotencyKey(req);
    try {
      const res = await portalRequest({
        method: 'POST',
        path: routes.dealStageTransitions(params.dealId),
        schema: Deal,
        body,
        ifMatch,
        idempotencyKey,
        signal: req.signal,
      });
      upstream.requestId = res.requestId;
      const etag = res.etag ?? '';
      const deal = dealView(res.data, etag);
      auditObject({ applicationId: deal.application?.id ?? null });
      return { body: { deal }, headers: etagHeader(etag) };
    } catch (e) {
      if (!isPortalError(e) || !e.fromUpstream || e.status !== 412) throw e;
      // Someone moved or changed the deal first: show them where it is now.
      upstream.requestId = e.requestId;
      const current = await readDeal(params.dealId, req.signal);
      const view = dealView(current.data, current.etag ?? '');
      auditObject({ applicationId: view.application?.id ?? null });
      return preconditionFailedReply(e, view, current.etag);
    }
  },
);
