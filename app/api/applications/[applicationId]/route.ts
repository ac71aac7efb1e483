import { ApplicationEnvelope } from '@/lib/portal';
import { applicationView } from '@/server/applications/views';
import { route } from '@/server/http/route';
import { ApplicationParams, etagHeader } from '@/server/http/params';
import { portalRequest, routes } from '@/server/portal';

// GET /api/applications/[applicationId] – the application with its progress and status
export const GET = route(
  { roles: ['staff', 'reviewer', 'client'], params: ApplicationParams, application: ({ params }) => params.applicationId },
  async ({ params, req, upstream }) => {
    const res = await portalRequest({ path: routes.application(params.applicationId), schema: ApplicationEnvelope, signal: req.signal });
    upstream.requestId = res.requestId;
    const etag = res.etag ?? '';
    return { body: { application: applicationView(res.data.application, etag) }, headers: etagHeader(etag) };
  },
);

