import { etagHeader } from '@/server/http/headers';
import { MatchRunParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { readProjectRun } from '@/server/projects/read';
import { runView } from '@/server/projects/project-views';

// GET /api/projects/[projectId]/runs/[runId] – one match run with its progress (funders screened) or failure
export const GET = route({ roles: ['staff', 'reviewer'], params: MatchRunParams }, async ({ params }) => {
  const res = await readProjectRun(params.projectId, params.runId);
  return { body: { run: runView(res.data) }, headers: etagHeader(res.etag) };
});
