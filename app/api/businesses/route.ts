import { BusinessCreateInput, ListQuery } from '@/lib/bff/businesses';
import { BusinessCreateResult } from '@/lib/portal';
import { listBusinesses } from '@/server/businesses/list';
import { rememberUploadSlots } from '@/server/businesses/upload-slots';
import { businessCreatedView } from '@/server/businesses/views';
import { auditCreate, route } from '@/server/http/route';
import { requireIdempotencyKey } from '@/server/http/headers';
import { portalRequest, routes } from '@/server/portal';
import { prefillApplication } from '@/server/businesses/prefill-application';
import { recordAnswersWritten, recordBusinessCreated } from '@/server/read-model/record';

// GET /api/businesses – a page of businesses (page_size, cursor)
export const GET = route({ roles: ['staff'], query: ListQuery }, async ({ query, req, upstream }) => {
  const { view, requestId } = await listBusinesses(query, req.signal);
  upstream.requestId = requestId;
  return { body: view };
});

// POST /api/businesses – create a business with its intake application, its answers prefilled from what the form
// collected; its document slots are uploaded to through the BFF
export const POST = route(
  { roles: ['staff'], body: BusinessCreateInput, audit: auditCreate('business') },
  async ({ body, req, db, upstream, auditObject }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const res = await portalRequest({
      method: 'POST',
      path: routes.businesses(),
      schema: BusinessCreateResult,
      body,
      idempotencyKey,
      signal: req.signal,
    });
    upstream.requestId = res.requestId;
    const created = res.data;
    auditObject({ id: created.business.id, applicationId: created.application.id });
    await rememberUploadSlots(db, created.business.id, created.application.id, created.file_uploads);
    await recordBusinessCreated(db, { businessId: created.business.id, applicationId: created.application.id, name: created.business.name, contact: body.contact });
    // The business exists whatever happens next: a failed prefill is said, not made a failed create.
    const prefilled = await prefillApplication(created.application.id, body, req.signal).then(
      ({ questions, answersRevision }) => {
        if (answersRevision !== null) recordAnswersWritten(db, created.application.id, answersRevision);
        return { questions, problem: null };
      },
      (e: unknown) => ({ questions: [], problem: `Its application was not filled in from this form (${e instanceof Error ? e.message : 'the Portal refused'}): enter the name and contact there.` }),
    );
    return { status: 201, body: businessCreatedView(created, prefilled) };
  },
);
