import { dealApplicationRoutes } from '@/server/application-kinds/routes';

// GET /api/deal-applications/[dealApplicationId]/form – everything the form opens with
export const { GET } = dealApplicationRoutes.form;
