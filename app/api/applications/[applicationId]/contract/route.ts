import { ApplicationEnvelope } from '@/lib/portal';
import { readContract } from '@/server/applications/contract-cache';
import { knownApplicationLinks, rememberLinks } from '@/server/applications/links';
import { contractView } from '@/server/applications/views';
import { route } from '@/server/http/route';
import { ApplicationParams, etagHeader } from '@/server/http/params';
import { portalRequest, routes } from '@/server/portal';

// GET /api/applications/[applicationId]/contract – the questions the form is rendered from
export const GET = route(
  { roles: ['staff', 'reviewer', 'client'], params: ApplicationParams, application: ({ params }) => params.applicationId },
  async ({ params, req, upstream }) => {
    const known = knownApplicationLinks(params.applicationId);
    const app = known ? null : await portalRequest({ path: routes.application(params.applicationId), schema: ApplicationEnvelope, signal: req.signal });
    // Always revalidated (maxAgeMs 0): this reply carries the contract's own answers_revision and ETag, so
    // a kept copy is reused only on a 304.
    const read = await readContract(known?.contract ?? app!.data.application.contract_url, { signal: req.signal, maxAgeMs: 0 });
    upstream.requestId = read.requestId;
    if (app) rememberLinks(params.applicationId, app.data.application, read.contract);
    return { body: { contract: contractView(read.contract) }, headers: etagHeader(read.etag) };
  },
);
