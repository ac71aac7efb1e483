import { ApplicationContract, CriteriaAnswersMutationResult, ProjectCriteria } from '@/lib/portal';
import { criteriaEtag, criteriaView } from '../funding/projects';
import type { RouteDef } from '../http/context';
import { contractEtag } from '../http/etag';
import { answerRoutesFor } from './answers';
import { PROJECT_CRITERIA, applicationOf } from './application-kinds';
import { contractView } from './applications';
import { fileRoutesFor } from './files';
import { itemRoutesFor } from './items';

/*
 * A project's criteria (DESIGN.md §6) at criteria_url, project-criteria/{id}/: the criteria resource, then the
 * application machinery of every kind — contract/, answers/ (If-Match, answers_revision, 412, all-or-nothing
 * 422 with field details, visibility, value_schema), repeatable-items/, file-uploads/ and files/. Reads need
 * projects:read, writes projects:write.
 */

/** The shared routes, named for the criteria in the OpenAPI document. */
const asCriteria = (routes: RouteDef[]): RouteDef[] =>
  routes.map((r) => ({
    ...r,
    tag: 'projects',
    summary: `${r.summary} (project criteria)`,
    ...(r.method === 'PATCH' && r.path.endsWith('/answers/') ? { response: CriteriaAnswersMutationResult } : {}),
  }));

export const criteriaRoutes: RouteDef[] = [
  {
    // GET project-criteria/{id}/ – the criteria resource, with the answers prefilled from the intake application
    method: 'GET',
    path: `${PROJECT_CRITERIA.segment}/:id/`,
    access: PROJECT_CRITERIA.read,
    summary: 'Read a project’s criteria (prefilled_from lists the answers still holding the value copied from the intake application)',
    tag: 'projects',
    response: ProjectCriteria,
    handle: ({ sb, params }) => {
      const app = applicationOf(sb, PROJECT_CRITERIA, params.id!);
      return { status: 200, headers: { ETag: criteriaEtag(app) }, body: criteriaView(sb, app) };
    },
  },
  {
    // GET project-criteria/{id}/contract/ – the questions of the criteria
    method: 'GET',
    path: `${PROJECT_CRITERIA.segment}/:id/contract/`,
    access: PROJECT_CRITERIA.read,
    summary: 'Read the criteria contract',
    tag: 'projects',
    response: ApplicationContract,
    handle: ({ sb, params }) => {
      const app = applicationOf(sb, PROJECT_CRITERIA, params.id!);
      return {
        status: 200,
        body: contractView(sb, app),
        headers: { ETag: contractEtag(app) },
      };
    },
  },
  ...asCriteria(answerRoutesFor(PROJECT_CRITERIA)),
  ...asCriteria(itemRoutesFor(PROJECT_CRITERIA)),
  ...asCriteria(fileRoutesFor(PROJECT_CRITERIA)),
];
