import type { RunReply } from '@/lib/bff/autofill';
import { applicationLinks, byApplication } from '@/server/application-kinds/intake';
import { runObject } from '@/server/autofill/audit-objects';
import { RunParams } from '@/server/http/path-params';
import { retryRun } from '@/server/autofill/runs';
import { runView } from '@/server/autofill/views';
import { route } from '@/server/http/route';
import { requireIdempotencyKey } from '@/server/http/headers';

// POST /api/applications/[applicationId]/autofill/runs/[runId]/retry – a new attempt of a failed run
// (Idempotency-Key); 409 when it cannot be retried
export const POST = route(
  {
    roles: ['staff', 'client'],
    params: RunParams,
    application: byApplication,
    audit: { operation: 'autofill.retry', object: runObject },
  },
  async ({ params, req, upstream }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const links = await applicationLinks(params.applicationId, req.signal);
    const res = await retryRun(params.applicationId, links, params.runId, idempotencyKey, req.signal);
    upstream.requestId = res.requestId;
    const body: RunReply = { run: runView(res.data) };
    return { body };
  },
);
