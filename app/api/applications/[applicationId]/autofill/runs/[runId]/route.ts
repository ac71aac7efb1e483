import type { RunReply } from '@/lib/bff/autofill';
import { applicationLinks, byApplication } from '@/server/application-kinds/intake';
import { RunParams } from '@/server/http/path-params';
import { readRun } from '@/server/autofill/runs';
import { runView } from '@/server/autofill/views';
import { route } from '@/server/http/route';
import { etagHeader } from '@/server/http/headers';

// GET /api/applications/[applicationId]/autofill/runs/[runId] – one run with its progress (what the UI polls)
export const GET = route(
  { roles: ['staff', 'reviewer', 'client'], params: RunParams, application: byApplication },
  async ({ params, req, upstream }) => {
    const links = await applicationLinks(params.applicationId, req.signal);
    const res = await readRun(params.applicationId, links, params.runId, req.signal);
    upstream.requestId = res.requestId;
    const body: RunReply = { run: runView(res.data) };
    return { body, headers: etagHeader(res.etag) };
  },
);
