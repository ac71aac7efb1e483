import { DealApplication } from '@/lib/portal';
import { preconditionFailedReply } from '@/server/http/conflict-reply';
import { dealApplicationLinks } from '@/server/deal-applications/links';
import { DealApplicationParams } from '@/server/deal-applications/params';
import { dealApplicationView } from '@/server/deal-applications/views';
import { route } from '@/server/http/route';
import { etagHeader, requireIdempotencyKey, requireIfMatch } from '@/server/http/params';
import { isPortalError, portalRequest, routes } from '@/server/portal';

// POST /api/deal-applications/[dealApplicationId]/submit – submit the deal application; missing answers come back as 422 details, a 412 with the application as it is now
export const POST = route(
  {
    roles: ['staff'],
    params: DealApplicationParams,
    audit: {
      operation: 'deal_application.submit',
      object: ({ params }) => ({ type: 'deal_application', id: params.dealApplicationId, applicationId: params.dealApplicationId }),
    },
  },
  async ({ params, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const idempotencyKey = requireIdempotencyKey(req);
    const links = await dealApplicationLinks(params.dealApplicationId, req.signal);
    try {
      const res = await portalRequest({ method: 'POST', url: links.submit, schema: DealApplication, ifMatch, idempotencyKey, signal: req.signal });
      upstream.requestId = res.requestId;
      const etag = res.etag ?? '';
      return { body: { application: dealApplicationView(res.data, etag) }, headers: etagHeader(etag) };
    } catch (e) {
      if (!isPortalError(e) || !e.fromUpstream || e.status !== 412) throw e;
      // Answers changed since the browser's read: show the application as it is now, with the ETag to retry with.
      upstream.requestId = e.requestId;
      const current = await portalRequest({ path: routes.dealApplication(params.dealApplicationId), schema: DealApplication, signal: req.signal });
      return preconditionFailedReply(e, dealApplicationView(current.data, current.etag ?? ''), current.etag);
    }
  },
);
