import { dealApplicationRoutes } from '@/server/applications/kind-routes';

// GET /api/deal-applications/[dealApplicationId]/contract – the questions the form is rendered from
export const { GET } = dealApplicationRoutes.contract;
