import 'server-only';
import { CriteriaAnswersMutationResult, ProjectCriteria } from '@/lib/portal';
import { ProjectParams } from '@/server/http/path-params';
import { linksOfProject } from '@/server/projects/read';
import { criteriaView } from '@/server/projects/project-views';
import { defineApplicationKind } from './kind';
import { contractLinks } from './kind-links';

/**
 * A funding project's criteria (`/api/projects/[projectId]/criteria`, DESIGN.md §6): the third kind, named by
 * its project and reached through the project's criteria_url. Staff write; reviewers read. No items, files
 * or submit of their own (the seed contract has none; starting a match run is what takes them).
 */
export const projectCriteria = defineApplicationKind({
  idParam: 'projectId',
  params: ProjectParams,
  roles: { read: ['staff', 'reviewer'], write: ['staff'] },
  upstream: {
    url: async (projectId) => (await linksOfProject(projectId)).criteria,
    schema: ProjectCriteria,
    unwrap: (criteria) => criteria,
  },
  answersResult: CriteriaAnswersMutationResult,
  view: criteriaView,
  contractUrl: (criteria) => criteria.contract_url,
  linksOf: contractLinks,
  audit: { application: { type: 'project_criteria', answersUpdate: 'project.criteria_update' } },
});
