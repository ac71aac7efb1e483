import { PreparationUpdate, type PreparationReply } from '@/lib/bff/autofill';
import { applicationLinks, byApplication } from '@/server/application-kinds/intake';
import { preparationObject } from '@/server/autofill/audit-objects';
import { currentPreparation } from '@/server/autofill/conflict';
import { readPreparation, updatePreparation } from '@/server/autofill/preparation';
import { preparationView } from '@/server/autofill/views';
import { withConflictReply } from '@/server/http/conflict-reply';
import { etagHeader, requireIfMatch } from '@/server/http/headers';
import { ApplicationParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';

// GET /api/applications/[applicationId]/autofill/preparation – text input, AI mode, evidence and whether a run can start
export const GET = route(
  { roles: ['staff', 'reviewer', 'client'], params: ApplicationParams, application: byApplication },
  async ({ params, req, upstream }) => {
    const links = await applicationLinks(params.applicationId, req.signal);
    const res = await readPreparation(params.applicationId, links, req.signal);
    upstream.requestId = res.requestId;
    const body: PreparationReply = { preparation: preparationView(res.data), etag: res.etag };
    return { body, headers: etagHeader(res.etag) };
  },
);

// PATCH /api/applications/[applicationId]/autofill/preparation – ai_mode and/or text_input (If-Match); a 412
// comes back with the current preparation
export const PATCH = route(
  {
    roles: ['staff', 'client'],
    params: ApplicationParams,
    body: PreparationUpdate,
    application: byApplication,
    audit: { operation: 'autofill.preparation_update', object: preparationObject },
  },
  async ({ params, body, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const links = await applicationLinks(params.applicationId, req.signal);
    const write = async () => {
      const res = await updatePreparation(params.applicationId, links, body, ifMatch, req.signal);
      upstream.requestId = res.requestId;
      const reply: PreparationReply = { preparation: preparationView(res.data), etag: res.etag };
      return { body: reply, headers: etagHeader(res.etag) };
    };
    return withConflictReply(upstream, write, currentPreparation(params.applicationId, links, req.signal));
  },
);
