import { dealApplicationRoutes } from '@/server/applications/kind-routes';

// DELETE /api/deal-applications/[dealApplicationId]/files/[fileId] – remove an attached file
export const { DELETE } = dealApplicationRoutes.file;
