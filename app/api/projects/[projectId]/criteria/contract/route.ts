import { projectCriteriaRoutes } from '@/server/application-kinds/routes';

// GET /api/projects/[projectId]/criteria/contract – the criteria's questions
export const { GET } = projectCriteriaRoutes.contract;
