import 'server-only';
import { createRoute } from '@/server/http/create-route';
import { MatchRunStartInput, ProjectCreateInput } from '@/lib/bff/projects';
import { FundingMatchPage, MatchesQuery, MatchRun, MatchRunPage, PageQuery, Project, ProjectsQuery } from '@/lib/portal';
import { projectCriteria } from '@/server/applications/project-criteria';
import { withConflictReply } from '@/server/http/conflict-reply';
import { etagHeader, requireIdempotencyKey } from '@/server/http/headers';
import { ProjectParams, MatchRunParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { portalRequest, routes } from '@/server/portal';
import { decisionRoute } from '@/server/projects/decision-route';
import { listProjects } from '@/server/projects/list';
import { matchView, projectView, runView } from '@/server/projects/project-views';
import { linksOfProject, readProject, readProjectRun, rememberMatches } from '@/server/projects/read';
import { recordProjectCreated } from '@/server/read-model/record';
import { api } from '@/lib/api/endpoints';

// POST /api/projects/[projectId]/matches/[matchId]/dismiss – dismiss a match (If-Match: its etag; 412 with the match as it is now)
const matchDismiss_POST = decisionRoute('dismiss');

// POST /api/projects/[projectId]/matches/[matchId]/shortlist – shortlist a match (If-Match: its etag; 412 with the match as it is now)
const matchShortlist_POST = decisionRoute('shortlist');

// GET /api/projects/[projectId]/matches – the latest completed run's matches, best first (fit, product_kind, page_size, cursor)
const projectMatches_GET = route(api.projectMatches.GET, { roles: ['staff', 'reviewer'], params: ProjectParams, query: MatchesQuery }, async ({ params, query }) => {
  const { matches } = await linksOfProject(params.projectId);
  const res = await portalRequest({ url: matches, schema: FundingMatchPage, query });
  rememberMatches(params.projectId, res.data.items);
  return { body: { items: res.data.items.map(matchView), next_cursor: res.data.next_cursor, previous_cursor: res.data.previous_cursor } };
});

// GET /api/projects/[projectId] – one funding project with its status and business
const project_GET = route(api.project.GET, { roles: ['staff', 'reviewer'], params: ProjectParams }, async ({ params }) => {
  const res = await readProject(params.projectId);
  return { body: { project: projectView(res.data) }, headers: etagHeader(res.etag) };
});

// POST /api/projects/[projectId]/runs/[runId]/retry – a new attempt of a failed run (Idempotency-Key)
const projectRunRetry_POST = route(
  api.projectRunRetry.POST,
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

// GET /api/projects/[projectId]/runs/[runId] – one match run with its progress (funders screened) or failure
const projectRun_GET = route(api.projectRun.GET, { roles: ['staff', 'reviewer'], params: MatchRunParams }, async ({ params }) => {
  const res = await readProjectRun(params.projectId, params.runId);
  return { body: { run: runView(res.data) }, headers: etagHeader(res.etag) };
});

// GET /api/projects/[projectId]/runs – the project's match runs, newest first (page_size, cursor)
const projectRuns_GET = route(api.projectRuns.GET, { roles: ['staff', 'reviewer'], params: ProjectParams, query: PageQuery }, async ({ params, query }) => {
  const { matchRuns } = await linksOfProject(params.projectId);
  const res = await portalRequest({ url: matchRuns, schema: MatchRunPage, query });
  return { body: { items: res.data.items.map(runView), next_cursor: res.data.next_cursor, previous_cursor: res.data.previous_cursor } };
});

// POST /api/projects/[projectId]/runs – start a match run for the criteria at expected_criteria_revision (Idempotency-Key);
// criteria changed since: 412 with the criteria as they are now
const projectRuns_POST = route(
  api.projectRuns.POST,
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

// GET /api/projects – a page of funding projects (page_size, cursor, business_id), each with its best fit
const projects_GET = route(api.projects.GET, { roles: ['staff', 'reviewer'], query: ProjectsQuery }, async ({ query }) => ({ body: await listProjects(query) }));

// POST /api/projects – create a funding project for a business (Idempotency-Key); its criteria come prefilled from the intake answers
const projects_POST = createRoute(
  api.projects.POST,
  { type: 'project', body: ProjectCreateInput, path: routes.projects, schema: Project },
  async ({ data, etag, db, auditObject }) => {
    auditObject({ id: data.id });
    await recordProjectCreated(db, data);
    return { status: 201, body: { project: projectView(data) }, headers: etagHeader(etag) };
  },
);

/** The route handlers of project: each route file under app/api re-exports its methods. */
export const projectRoutes = {
  matchDismiss: { POST: matchDismiss_POST },
  matchShortlist: { POST: matchShortlist_POST },
  projectMatches: { GET: projectMatches_GET },
  project: { GET: project_GET },
  projectRunRetry: { POST: projectRunRetry_POST },
  projectRun: { GET: projectRun_GET },
  projectRuns: { GET: projectRuns_GET, POST: projectRuns_POST },
  projects: { GET: projects_GET, POST: projects_POST },
};
