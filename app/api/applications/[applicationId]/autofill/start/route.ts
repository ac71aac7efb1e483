import { StartRequest, type RunReply } from '@/lib/bff/autofill';
import { applicationLinks } from '@/server/applications/links';
import { byApplication } from '@/server/applications/route-params';
import { preparationObject } from '@/server/autofill/audit-objects';
import { isPreparationConflict, preparationConflict } from '@/server/autofill/conflict';
import { startUrlOf } from '@/server/autofill/preparation';
import { startRun } from '@/server/autofill/runs';
import { runView } from '@/server/autofill/views';
import { route } from '@/server/http/route';
import { ApplicationParams, requireIdempotencyKey } from '@/server/http/params';

// POST /api/applications/[applicationId]/autofill/start – start a run from the preparation revision the user saw
// (Idempotency-Key); a stale revision gives 412 with the current preparation, a start that cannot happen now 409
export const POST = route(
  {
    roles: ['staff', 'client'],
    params: ApplicationParams,
    body: StartRequest,
    application: byApplication,
    audit: { operation: 'autofill.start', object: preparationObject },
  },
  async ({ params, body, req, upstream }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const links = await applicationLinks(params.applicationId, req.signal);
    const startUrl = await startUrlOf(params.applicationId, links, req.signal);
    try {
      const res = await startRun(params.applicationId, startUrl, body, idempotencyKey, req.signal);
      upstream.requestId = res.requestId;
      const reply: RunReply = { run: runView(res.data) };
      return { status: 201, body: reply };
    } catch (e) {
      if (!isPreparationConflict(e)) throw e;
      upstream.requestId = e.requestId;
      return preparationConflict(e, params.applicationId, links, req.signal);
    }
  },
);
