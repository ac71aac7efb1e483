import { ProjectCreateInput } from '@/lib/bff/projects';
import { Project, ProjectsQuery } from '@/lib/portal';
import { etagHeader, requireIdempotencyKey } from '@/server/http/headers';
import { auditCreate, route } from '@/server/http/route';
import { portalRequest, routes } from '@/server/portal';
import { listProjects } from '@/server/projects/list';
import { projectView } from '@/server/projects/project-views';
import { recordProjectCreated } from '@/server/read-model/record';

// GET /api/projects – a page of funding projects (page_size, cursor, business_id), each with its best fit
export const GET = route({ roles: ['staff', 'reviewer'], query: ProjectsQuery }, async ({ query }) => {
  const { view } = await listProjects(query);
  return { body: view };
});

// POST /api/projects – create a funding project for a business (Idempotency-Key); its criteria come prefilled from the intake answers
export const POST = route(
  { roles: ['staff'], body: ProjectCreateInput, audit: auditCreate('project') },
  async ({ body, req, db, auditObject }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const res = await portalRequest({ method: 'POST', path: routes.projects(), schema: Project, body, idempotencyKey });
    auditObject({ id: res.data.id });
    await recordProjectCreated(db, res.data);
    return { status: 201, body: { project: projectView(res.data) }, headers: etagHeader(res.etag) };
  },
);
