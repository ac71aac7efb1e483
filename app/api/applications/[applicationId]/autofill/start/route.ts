import { StartRequest, type RunReply } from '@/lib/bff/autofill';
import { applicationLinks, byApplication } from '@/server/application-kinds/intake';
import { preparationObject } from '@/server/autofill/audit-objects';
import { currentPreparation } from '@/server/autofill/conflict';
import { startUrlOf } from '@/server/autofill/preparation';
import { startRun } from '@/server/autofill/runs';
import { runView } from '@/server/autofill/views';
import { withConflictReply } from '@/server/http/conflict-reply';
import { requireIdempotencyKey } from '@/server/http/headers';
import { ApplicationParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';

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
    const start = async () => {
      const res = await startRun(params.applicationId, startUrl, body, idempotencyKey, req.signal);
      upstream.requestId = res.requestId;
      const reply: RunReply = { run: runView(res.data) };
      return { status: 201, body: reply };
    };
    return withConflictReply(upstream, start, currentPreparation(params.applicationId, links, req.signal));
  },
);
