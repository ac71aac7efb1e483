import { projectRoutes } from '@/server/projects/project-routes';

export const { POST } = projectRoutes.matchDismiss;
