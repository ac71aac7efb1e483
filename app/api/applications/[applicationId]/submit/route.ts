import { applicationLinks } from '@/server/applications/links';
import { byApplication } from '@/server/applications/route-params';
import { submitApplication } from '@/server/applications/submit';
import { applicationView } from '@/server/applications/views';
import { route } from '@/server/http/route';
import { ApplicationParams, etagHeader, requireIdempotencyKey, requireIfMatch } from '@/server/http/params';

// POST /api/applications/[applicationId]/submit – submit the application (If-Match: the application's ETag;
// Idempotency-Key); missing answers come back as a 422 listing each of them
export const POST = route(
  {
    roles: ['staff', 'client'],
    params: ApplicationParams,
    application: byApplication,
    audit: { operation: 'application.submit', object: ({ params }) => ({ type: 'application', id: params.applicationId, applicationId: params.applicationId }) },
  },
  async ({ params, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const idempotencyKey = requireIdempotencyKey(req);
    const links = await applicationLinks(params.applicationId, req.signal);
    const res = await submitApplication(links, ifMatch, idempotencyKey, req.signal);
    upstream.requestId = res.requestId;
    const etag = res.etag ?? '';
    return { body: { application: applicationView(res.data.application, etag) }, headers: etagHeader(etag) };
  },
);
