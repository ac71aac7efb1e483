import { DealApplication } from '@/lib/portal';
import { DealApplicationParams } from '@/server/deal-applications/params';
import { dealApplicationView } from '@/server/deal-applications/views';
import { route } from '@/server/http/route';
import { etagHeader } from '@/server/http/params';
import { portalRequest, routes } from '@/server/portal';

// GET /api/deal-applications/[dealApplicationId] – the deal application with its status (its ETag is what submit quotes)
export const GET = route({ roles: ['staff'], params: DealApplicationParams }, async ({ params, req, upstream }) => {
  const res = await portalRequest({ path: routes.dealApplication(params.dealApplicationId), schema: DealApplication, signal: req.signal });
  upstream.requestId = res.requestId;
  const etag = res.etag ?? '';
  return { body: { application: dealApplicationView(res.data, etag) }, headers: etagHeader(etag) };
});
