import type { RunReply } from '@/lib/bff/autofill';
import { intakeApplication } from '@/server/applications/intake-application';
import { kindRoute } from '@/server/applications/kind-route';
import { RunParams } from '@/server/http/path-params';
import { readRun } from '@/server/autofill/runs';
import { runView } from '@/server/autofill/autofill-views';
import { etagHeader } from '@/server/http/headers';

// GET /api/applications/[applicationId]/autofill/runs/[runId] – one run with its progress (what the UI polls)
export const GET = kindRoute(
  intakeApplication,
  { roles: ['staff', 'reviewer', 'client'], params: RunParams },
  async ({ id, links, params }) => {
    const res = await readRun(id, await links(), params.runId);
    const body: RunReply = { run: runView(res.data) };
    return { body, headers: etagHeader(res.etag) };
  },
);
