import { dealApplicationRoutes } from '@/server/application-kinds/routes';

// GET /api/deal-applications/[dealApplicationId] – the application with its status (and progress); its ETag is what submit quotes
export const { GET } = dealApplicationRoutes.application;
