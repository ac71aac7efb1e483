import { projectCriteriaRoutes } from '@/server/applications/kind-routes';

// GET /api/projects/[projectId]/criteria/form – everything the criteria form opens with
export const { GET } = projectCriteriaRoutes.form;
