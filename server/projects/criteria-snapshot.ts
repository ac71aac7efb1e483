import 'server-only';
import { projectCriteria } from '@/server/application-kinds/criteria';
import { readKindFormSnapshot } from '@/server/application-kinds/form-snapshot';

/** Everything a project's criteria form opens with: the same reads as an intake application's (kind 'criteria'). */
export const readCriteriaFormSnapshot = (projectId: string) => readKindFormSnapshot(projectCriteria, projectId);
