import type { RunReply } from '@/lib/bff/autofill';
import { intakeApplication } from '@/server/applications/intake-application';
import { kindRoute } from '@/server/applications/kind-route';
import { runObject } from '@/server/autofill/audit-objects';
import { RunParams } from '@/server/http/path-params';
import { retryRun } from '@/server/autofill/runs';
import { runView } from '@/server/autofill/autofill-views';
import { requireIdempotencyKey } from '@/server/http/headers';

// POST /api/applications/[applicationId]/autofill/runs/[runId]/retry – a new attempt of a failed run
// (Idempotency-Key); 409 when it cannot be retried
export const POST = kindRoute(
  intakeApplication,
  { roles: ['staff', 'client'], params: RunParams, audit: { operation: 'autofill.retry', object: runObject } },
  async ({ id, links, params, req }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const res = await retryRun(id, await links(), params.runId, idempotencyKey);
    const body: RunReply = { run: runView(res.data) };
    return { body };
  },
);
