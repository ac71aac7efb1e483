import { dealApplicationRoutes } from '@/server/applications/kind-routes';

// GET /api/deal-applications/[dealApplicationId]/answers/history – one answer's changes or every answer's, newest first
export const { GET } = dealApplicationRoutes.history;
