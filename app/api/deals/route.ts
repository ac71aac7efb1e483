import { DealCreateInput, DealsQuery } from '@/lib/bff/deals';
import { Deal } from '@/lib/portal';
import { listDeals } from '@/server/deals/list';
import { dealView } from '@/server/deals/deal-views';
import { auditCreate, route } from '@/server/http/route';
import { etagHeader, requireIdempotencyKey } from '@/server/http/headers';
import { portalRequest, routes } from '@/server/portal';
import { recordDealCreated } from '@/server/read-model/record';

// GET /api/deals – a page of deals (page_size, cursor, business_id)
export const GET = route({ roles: ['staff'], query: DealsQuery }, async ({ query }) => {
  const { view } = await listDeals(query);
  return { body: view };
});

// POST /api/deals – create a deal for a business, for the Portal itself or for a recipient, with its deal application
export const POST = route(
  { roles: ['staff'], body: DealCreateInput, audit: auditCreate('deal') },
  async ({ body, req, db, auditObject }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const res = await portalRequest({ method: 'POST', path: routes.deals(), schema: Deal, body, idempotencyKey });
    await recordDealCreated(db, res.data, body.business_id);
    const etag = res.etag ?? '';
    const deal = dealView(res.data, etag);
    auditObject({ id: deal.id, applicationId: deal.application?.id ?? null });
    return { status: 201, body: { deal }, headers: etagHeader(etag) };
  },
);
