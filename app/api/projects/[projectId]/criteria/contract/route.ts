import { projectCriteriaRoutes } from '@/server/applications/kind-routes';

// GET /api/projects/[projectId]/criteria/contract – the criteria's questions
export const { GET } = projectCriteriaRoutes.contract;
