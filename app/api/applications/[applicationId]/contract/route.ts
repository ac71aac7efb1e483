import { ApplicationContract, ApplicationEnvelope } from '@/lib/portal';
import { rememberLinks } from '@/server/applications/links';
import { contractView } from '@/server/applications/views';
import { route } from '@/server/http/route';
import { ApplicationParams, etagHeader } from '@/server/http/params';
import { portalRequest, routes } from '@/server/portal';

// GET /api/applications/[applicationId]/contract – the questions the form is rendered from
export const GET = route(
  { roles: ['staff', 'reviewer', 'client'], params: ApplicationParams, application: ({ params }) => params.applicationId },
  async ({ params, req, upstream }) => {
    const app = await portalRequest({ path: routes.application(params.applicationId), schema: ApplicationEnvelope, signal: req.signal });
    const contract = await portalRequest({ url: app.data.application.contract_url, schema: ApplicationContract, signal: req.signal });
    upstream.requestId = contract.requestId;
    rememberLinks(params.applicationId, app.data.application, contract.data);
    return { body: { contract: contractView(contract.data) }, headers: etagHeader(contract.etag) };
  },
);
