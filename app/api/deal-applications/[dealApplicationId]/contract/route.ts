import { ApplicationContract, DealApplication } from '@/lib/portal';
import { contractView } from '@/server/applications/views';
import { rememberDealApplicationLinks } from '@/server/deal-applications/links';
import { DealApplicationParams } from '@/server/deal-applications/params';
import { route } from '@/server/http/route';
import { etagHeader } from '@/server/http/params';
import { portalRequest, routes } from '@/server/portal';

// GET /api/deal-applications/[dealApplicationId]/contract – the questions the deal application's form is rendered from
export const GET = route({ roles: ['staff'], params: DealApplicationParams }, async ({ params, req, upstream }) => {
  const app = await portalRequest({ path: routes.dealApplication(params.dealApplicationId), schema: DealApplication, signal: req.signal });
  const contract = await portalRequest({ url: app.data.contract_url, schema: ApplicationContract, signal: req.signal });
  upstream.requestId = contract.requestId;
  rememberDealApplicationLinks(params.dealApplicationId, app.data, contract.data);
  return { body: { contract: contractView(contract.data) }, headers: etagHeader(contract.etag) };
});
