import { dealApplicationRoutes } from '@/server/applications/kind-routes';

// GET /api/deal-applications/[dealApplicationId]/form – everything the form opens with
export const { GET } = dealApplicationRoutes.form;
