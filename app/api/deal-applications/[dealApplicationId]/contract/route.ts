import { DealApplication } from '@/lib/portal';
import { readContract } from '@/server/applications/contract-cache';
import { contractView } from '@/server/applications/views';
import { knownDealApplicationLinks, rememberDealApplicationLinks } from '@/server/deal-applications/links';
import { DealApplicationParams } from '@/server/deal-applications/params';
import { route } from '@/server/http/route';
import { etagHeader } from '@/server/http/params';
import { portalRequest, routes } from '@/server/portal';

// GET /api/deal-applications/[dealApplicationId]/contract – the questions the deal application's form is rendered from
export const GET = route({ roles: ['staff'], params: DealApplicationParams }, async ({ params, req, upstream }) => {
  const known = knownDealApplicationLinks(params.dealApplicationId);
  const app = known ? null : await portalRequest({ path: routes.dealApplication(params.dealApplicationId), schema: DealApplication, signal: req.signal });
  // Always revalidated (maxAgeMs 0): this reply carries the contract's own answers_revision and ETag.
  const read = await readContract(known?.contract ?? app!.data.contract_url, { signal: req.signal, maxAgeMs: 0 });
  upstream.requestId = read.requestId;
  if (app) rememberDealApplicationLinks(params.dealApplicationId, app.data, read.contract);
  return { body: { contract: contractView(read.contract) }, headers: etagHeader(read.etag) };
});
