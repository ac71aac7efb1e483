import { dealApplicationRoutes } from '@/server/applications/kind-routes';

// GET /api/deal-applications/[dealApplicationId] – the application with its status (and progress); its ETag is what submit quotes
export const { GET } = dealApplicationRoutes.application;
