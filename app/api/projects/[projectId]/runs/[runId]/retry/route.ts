import { MatchRun } from '@/lib/portal';
import { etagHeader, requireIdempotencyKey } from '@/server/http/headers';
import { MatchRunParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { portalRequest } from '@/server/portal';
import { readProjectRun } from '@/server/projects/read';
import { runView } from '@/server/projects/project-views';

// POST /api/projects/[projectId]/runs/[runId]/retry – a new attempt of a failed run (Idempotency-Key)
export const POST = route(
  {
    roles: ['staff'],
    params: MatchRunParams,
    audit: { operation: 'match_run.retry', object: ({ params }) => ({ type: 'match_run', id: params.runId }) },
  },
  async ({ params, req }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const { data: run } = await readProjectRun(params.projectId, params.runId);
    const res = await portalRequest({ method: 'POST', url: run.retry_url, schema: MatchRun, idempotencyKey });
    return { body: { run: runView(res.data) }, headers: etagHeader(res.etag) };
  },
);
