import { workspaceRoutes } from '@/server/read-model/workspace-routes';

export const { GET } = workspaceRoutes.reviewInbox;
