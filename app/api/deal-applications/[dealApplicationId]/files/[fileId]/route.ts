import { dealApplicationRoutes } from '@/server/application-kinds/routes';

// DELETE /api/deal-applications/[dealApplicationId]/files/[fileId] – remove an attached file
export const { DELETE } = dealApplicationRoutes.file;
