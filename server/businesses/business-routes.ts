import 'server-only';
import { createRoute } from '@/server/http/create-route';
import { ListQuery, UploadQuery, BusinessCreateInput } from '@/lib/bff/businesses';
import { BusinessPipelinePage, ParticipantList, BusinessFileUploadResult, BusinessCreateResult, ApiRoot } from '@/lib/portal';
import { pipelineListView, peopleView, businessView, businessCreatedView, portalView } from '@/server/businesses/business-views';
import { listBusinesses } from '@/server/businesses/list';
import { readBusinessStatus } from '@/server/businesses/status';
import { findUploadSlot, forgetUploadSlot, rememberUploadSlots } from '@/server/businesses/upload-slots';
import { AppError } from '@/server/http/app-error';
import { etagHeader } from '@/server/http/headers';
import { BusinessParams, UploadParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { portalRequest, routes, isPortalError } from '@/server/portal';
import { checkUploadRequest, documentRules, streamUpload } from '@/server/applications/upload-request';
import { recordAnswersWritten, recordBusinessCreated } from '@/server/read-model/record';
import { prefillApplication } from '@/server/applications/prefill-application';
import { api } from '@/lib/api/endpoints';

// GET /api/business-pipelines – a page of the Portal's business pipelines (page_size, cursor)
const businessPipelines_GET = route(api.businessPipelines.GET, { roles: ['staff'], query: ListQuery }, async ({ query }) => {
  const res = await portalRequest({ path: routes.businessPipelines(), schema: BusinessPipelinePage, query });
  return { body: pipelineListView(res.data) };
});

// GET /api/businesses/[businessId]/people – the business's people (contacts) with their tags
const businessPeople_GET = route(api.businessPeople.GET, { roles: ['staff'], params: BusinessParams }, async ({ params }) => {
  const res = await portalRequest({ path: routes.businessPeople(params.businessId), schema: ParticipantList });
  return { body: peopleView(res.data), headers: etagHeader(res.etag) };
});

// GET /api/businesses/[businessId] – the business with its workflow stage and application
const business_GET = route(api.business.GET, { roles: ['staff'], params: BusinessParams }, async ({ params }) => {
  const res = await readBusinessStatus(params.businessId);
  const etag = res.etag ?? '';
  return { body: { business: businessView(res.data, etag) }, headers: etagHeader(etag) };
});

const GONE = 'This document slot does not exist or has expired. Attach the document to its question in the application instead.';

// POST /api/businesses/[businessId]/uploads/[uploadId]?filename=… – stream one document (the request body, typed by Content-Type) into a slot of a new business
const businessUpload_POST = route(
  api.businessUpload.POST,
  {
    roles: ['staff'],
    params: UploadParams,
    query: UploadQuery,
    body: 'stream',
    audit: {
      operation: 'business.document_upload',
      // The application is learnt from the slot (in the handler, as the slot is read from the database).
      object: ({ params }) => ({ type: 'business', id: params.businessId, applicationId: null }),
    },
  },
  async ({ params, query, req, db, auditObject }) => {
    const slot = await findUploadSlot(db, params.businessId, params.uploadId);
    if (!slot) throw new AppError('not_found', GONE);
    auditObject({ applicationId: slot.applicationId });
    // The same checks as an answer file's: what one upload route refuses, no other forwards.
    const upload = checkUploadRequest(req, documentRules, query.filename);
    try {
      const res = await streamUpload(slot.uploadUrl, upload, documentRules, BusinessFileUploadResult);
      return { status: 201, body: { upload: res.data } };
    } catch (e) {
      // The Portal refuses a signed URL that expired or was withdrawn: the slot is of no more use.
      if (isPortalError(e) && e.fromUpstream && e.status === 403) {
        await forgetUploadSlot(db, params.businessId, params.uploadId);
        throw new AppError('not_found', GONE);
      }
      throw e;
    }
  },
);

// GET /api/businesses – a page of businesses (page_size, cursor)
const businesses_GET = route(api.businesses.GET, { roles: ['staff'], query: ListQuery }, async ({ query }) => ({ body: await listBusinesses(query) }));

// POST /api/businesses – create a business with its intake application, its answers prefilled from what the form collected; its document slots are uploaded to through the BFF
const businesses_POST = createRoute(
  api.businesses.POST,
  { type: 'business', body: BusinessCreateInput, path: routes.businesses, schema: BusinessCreateResult },
  async ({ data: created, body, db, auditObject }) => {
    auditObject({ id: created.business.id, applicationId: created.application.id });
    await rememberUploadSlots(db, created.business.id, created.application.id, created.file_uploads);
    await recordBusinessCreated(db, { businessId: created.business.id, applicationId: created.application.id, name: created.business.name, contact: body.contact });
    // The business exists whatever happens next: a failed prefill is said, not made a failed create.
    const prefilled = await prefillApplication(created.application.id, body).then(
      ({ questions, answersRevision }) => {
        if (answersRevision !== null) recordAnswersWritten(db, created.application.id, answersRevision);
        return { questions, problem: null };
      },
      (e: unknown) => ({ questions: [], problem: `Its application was not filled in from this form (${e instanceof Error ? e.message : 'the Portal refused'}): enter the name and contact there.` }),
    );
    return { status: 201, body: businessCreatedView(created, prefilled) };
  },
);

// GET /api/portal – which Portal the app works for, its environment and what the app's key may do (never the key)
const portal_GET = route(api.portal.GET, { roles: ['staff'] }, async () => {
  const res = await portalRequest({ path: routes.apiRoot(), schema: ApiRoot });
  return { body: portalView(res.data) };
});

/** The route handlers of business: each route file under app/api re-exports its methods. */
export const businessRoutes = {
  businessPipelines: { GET: businessPipelines_GET },
  businessPeople: { GET: businessPeople_GET },
  business: { GET: business_GET },
  businessUpload: { POST: businessUpload_POST },
  businesses: { GET: businesses_GET, POST: businesses_POST },
  portal: { GET: portal_GET },
};
