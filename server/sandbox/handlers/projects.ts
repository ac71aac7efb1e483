import { LIMITS, Project, ProjectCreateBody, ProjectPage, ProjectsQuery } from '@/lib/portal';
import { newProject, projectEtag, projectOf, projectView } from '../funding/projects';
import { fundingState } from '../funding/state';
import type { RouteDef } from '../http/context';
import { SandboxError } from '../http/errors';
import { keysetPage } from '../http/paging';

/*
 * Projects (DESIGN.md §6): list (filterable by business_id), create with its criteria prefilled from the
 * business's intake answers, read. Reads need projects:read, create projects:write.
 */

export const projectRoutes: RouteDef[] = [
  {
    // GET projects/ – a page of projects, oldest first; business_id narrows it to one business's projects
    method: 'GET',
    path: 'projects/',
    access: ['projects:read'],
    query: ProjectsQuery,
    summary: 'List funding projects',
    tag: 'projects',
    response: ProjectPage,
    handle: ({ sb, query }) => {
      const businessId = query.business_id as string | undefined;
      const all = Object.values(fundingState(sb).projects)
        .filter((p) => businessId === undefined || p.business_id === businessId)
        .sort((a, b) => a.seq - b.seq);
      const page = keysetPage({
        sb,
        items: all,
        keyOf: (p) => p.seq,
        scope: `projects:${businessId ?? ''}`,
        pageSize: (query.page_size as number | undefined) ?? LIMITS.paging.default,
        cursor: query.cursor as string | undefined,
        backward: true,
      });
      return { status: 200, body: { ...page, items: page.items.map((p) => projectView(sb, p)) } };
    },
  },
  {
    // POST projects/ – create a project (draft) with its criteria, prefilled from the intake answers that share a schema_key
    method: 'POST',
    path: 'projects/',
    access: ['projects:write'],
    idempotency: 'required',
    summary: 'Create a funding project; its criteria are prefilled from the business’s intake answers that share a schema_key',
    tag: 'projects',
    requestBody: ProjectCreateBody,
    response: Project,
    successStatus: 201,
    handle: async (ctx) => {
      const { sb } = ctx;
      const body = await ctx.body(ProjectCreateBody);
      if (!sb.state.businesses[body.business_id]) {
        throw new SandboxError('validation_failed', 'The project cannot be created.', [
          { code: 'unknown_business', message: `No business ${body.business_id} exists.`, parameter: 'business_id' },
        ]);
      }
      fundingState(sb);
      const p = newProject(sb.state, body, sb.now());
      sb.changed();
      sb.events.publish('project.created', {
        project_id: p.id,
        business_id: p.business_id,
        name: p.name,
        status: p.status,
        criteria_id: p.criteria_id,
        prefilled_answer_count: Object.keys(p.prefill?.values ?? {}).length,
      });
      return { status: 201, headers: { Location: sb.urls.project(p.id), ETag: projectEtag(p) }, body: projectView(sb, p) };
    },
  },
  {
    // GET projects/{id}/ – one project
    method: 'GET',
    path: 'projects/:id/',
    access: ['projects:read'],
    summary: 'Read a funding project',
    tag: 'projects',
    response: Project,
    handle: ({ sb, params }) => {
      const p = projectOf(sb, params.id!);
      return { status: 200, headers: { ETag: projectEtag(p) }, body: projectView(sb, p) };
    },
  },
];
