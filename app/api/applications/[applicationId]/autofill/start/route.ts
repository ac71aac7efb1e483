import { StartRequest, type RunReply } from '@/lib/bff/autofill';
import { intakeApplication } from '@/server/applications/intake-application';
import { kindRoute } from '@/server/applications/kind-route';
import { preparationObject } from '@/server/autofill/audit-objects';
import { startUrlOf } from '@/server/autofill/preparation';
import { withCurrentPreparation } from '@/server/autofill/preparation-reply';
import { startRun } from '@/server/autofill/runs';
import { runView } from '@/server/autofill/autofill-views';
import { requireIdempotencyKey } from '@/server/http/headers';
import { ApplicationParams } from '@/server/http/path-params';

// POST /api/applications/[applicationId]/autofill/start – start a run from the preparation revision the user saw
// (Idempotency-Key); a stale revision gives 412 with the current preparation, a start that cannot happen now 409
export const POST = kindRoute(
  intakeApplication,
  { roles: ['staff', 'client'], params: ApplicationParams, body: StartRequest, audit: { operation: 'autofill.start', object: preparationObject } },
  async ({ id, links, body, req }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const intake = await links();
    const startUrl = await startUrlOf(id, intake);
    return withCurrentPreparation({ applicationId: id, links: intake }, async () => {
      const res = await startRun(id, startUrl, body, idempotencyKey);
      const reply: RunReply = { run: runView(res.data) };
      return { status: 201, body: reply };
    });
  },
);
