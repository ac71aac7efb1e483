import { BusinessCreateInput, ListQuery } from '@/lib/bff/businesses';
import { BusinessCreateResult } from '@/lib/portal';
import { listBusinesses } from '@/server/businesses/list';
import { rememberUploadSlots } from '@/server/businesses/upload-slots';
import { businessCreatedView } from '@/server/businesses/business-views';
import { auditCreate, route } from '@/server/http/route';
import { requireIdempotencyKey } from '@/server/http/headers';
import { portalRequest, routes } from '@/server/portal';
import { recordBusinessCreated } from '@/server/read-model/record';

// GET /api/businesses – a page of businesses (page_size, cursor)
export const GET = route({ roles: ['staff'], query: ListQuery }, async ({ query }) => {
  const { view } = await listBusinesses(query);
  return { body: view };
});

// POST /api/businesses – create a business with its intake application; its document slots are uploaded to through the BFF
export const POST = route(
  { roles: ['staff'], body: BusinessCreateInput, audit: auditCreate('business') },
  async ({ body, req, db, auditObject }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const res = await portalRequest({
      method: 'POST',
      path: routes.businesses(),
      schema: BusinessCreateResult,
      body,
      idempotencyKey,
    });
    const created = res.data;
    auditObject({ id: created.business.id, applicationId: created.application.id });
    await rememberUploadSlots(db, created.business.id, created.application.id, created.file_uploads);
    await recordBusinessCreated(db, { businessId: created.business.id, applicationId: created.application.id, name: created.business.name, contact: body.contact });
    return { status: 201, body: businessCreatedView(created) };
  },
);
