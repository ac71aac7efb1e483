import { etagHeader } from '@/server/http/headers';
import { ProjectParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { readProject } from '@/server/projects/read';
import { projectView } from '@/server/projects/project-views';

// GET /api/projects/[projectId] – one funding project with its status and business
export const GET = route({ roles: ['staff', 'reviewer'], params: ProjectParams }, async ({ params }) => {
  const res = await readProject(params.projectId);
  return { body: { project: projectView(res.data) }, headers: etagHeader(res.etag) };
});
