import 'server-only';
import { createRoute } from '@/server/http/create-route';
import { ListQuery } from '@/lib/bff/businesses';
import { DealCreateInput, DealsQuery } from '@/lib/bff/deals';
import { DealPipelinePage, Deal, RecipientPage } from '@/lib/portal';
import { pipelineListView } from '@/server/businesses/business-views';
import { dealView, recipientListView } from '@/server/deals/deal-views';
import { listDeals } from '@/server/deals/list';
import { readDeal } from '@/server/deals/read-deal';
import { etagHeader } from '@/server/http/headers';
import { DealParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { portalRequest, routes } from '@/server/portal';
import { recordDealCreated } from '@/server/read-model/record';
import { api } from '@/lib/api/endpoints';

// GET /api/deal-pipelines – a page of the Portal's deal pipelines (page_size, cursor)
const dealPipelines_GET = route(api.dealPipelines.GET, { roles: ['staff'], query: ListQuery }, async ({ query }) => {
  const res = await portalRequest({ path: routes.dealPipelines(), schema: DealPipelinePage, query });
  return { body: pipelineListView(res.data) };
});

// GET /api/deals/[dealId] – one deal with its workflow stage, recipient and deal application
const deal_GET = route(api.deal.GET, { roles: ['staff'], params: DealParams }, async ({ params }) => {
  const res = await readDeal(params.dealId);
  const etag = res.etag ?? '';
  return { body: { deal: dealView(res.data, etag) }, headers: etagHeader(etag) };
});

// GET /api/deals – a page of deals (page_size, cursor, business_id)
const deals_GET = route(api.deals.GET, { roles: ['staff'], query: DealsQuery }, async ({ query }) => ({ body: (await listDeals(query)).view }));

// POST /api/deals – create a deal for a business, for the Portal itself or for a recipient, with its deal application
const deals_POST = createRoute(
  api.deals.POST,
  { type: 'deal', body: DealCreateInput, path: routes.deals, schema: Deal },
  async ({ data, etag: tag, body, db, auditObject }) => {
    await recordDealCreated(db, data, body.business_id);
    const etag = tag ?? '';
    const deal = dealView(data, etag);
    auditObject({ id: deal.id, applicationId: deal.application?.id ?? null });
    return { status: 201, body: { deal }, headers: etagHeader(etag) };
  },
);

// GET /api/recipients – a page of the organisations a deal can be made for (page_size, cursor)
const recipients_GET = route(api.recipients.GET, { roles: ['staff'], query: ListQuery }, async ({ query }) => {
  const res = await portalRequest({ path: routes.recipients(), schema: RecipientPage, query });
  return { body: recipientListView(res.data) };
});

/** The route handlers of deal: each route file under app/api re-exports its methods. */
export const dealRoutes = {
  dealPipelines: { GET: dealPipelines_GET },
  deal: { GET: deal_GET },
  deals: { GET: deals_GET, POST: deals_POST },
  recipients: { GET: recipients_GET },
};
