import { projectRoutes } from '@/server/projects/project-routes';

export const { GET } = projectRoutes.projectRun;
