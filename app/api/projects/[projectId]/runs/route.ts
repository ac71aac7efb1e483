import { MatchRunStartInput } from '@/lib/bff/projects';
import { MatchRun, MatchRunPage, PageQuery } from '@/lib/portal';
import { projectCriteria } from '@/server/applications/project-criteria';
import { withConflictReply } from '@/server/http/conflict-reply';
import { etagHeader, requireIdempotencyKey } from '@/server/http/headers';
import { ProjectParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { portalRequest } from '@/server/portal';
import { linksOfProject } from '@/server/projects/read';
import { runView } from '@/server/projects/project-views';

// GET /api/projects/[projectId]/runs – the project's match runs, newest first (page_size, cursor)
export const GET = route({ roles: ['staff', 'reviewer'], params: ProjectParams, query: PageQuery }, async ({ params, query }) => {
  const { matchRuns } = await linksOfProject(params.projectId);
  const res = await portalRequest({ url: matchRuns, schema: MatchRunPage, query });
  return { body: { items: res.data.items.map(runView), next_cursor: res.data.next_cursor, previous_cursor: res.data.previous_cursor } };
});

// POST /api/projects/[projectId]/runs – start a match run for the criteria at expected_criteria_revision (Idempotency-Key);
// criteria changed since: 412 with the criteria as they are now
export const POST = route(
  {
    roles: ['staff'],
    params: ProjectParams,
    body: MatchRunStartInput,
    audit: { operation: 'match_run.start', object: ({ params }) => ({ type: 'project', id: params.projectId }) },
  },
  async ({ params, body, req }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const { matchRuns } = await linksOfProject(params.projectId);
    const start = async () => {
      const res = await portalRequest({ method: 'POST', url: matchRuns, schema: MatchRun, body, idempotencyKey });
      return { status: 201, body: { run: runView(res.data) }, headers: etagHeader(res.etag) };
    };
    const current = async () => {
      const now = await projectCriteria.read(params.projectId);
      return { current: projectCriteria.view(now.app, now.etag ?? ''), etag: now.etag };
    };
    return withConflictReply(start, current);
  },
);
