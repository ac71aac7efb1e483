import { dealRoutes } from '@/server/deals/deal-routes';

export const { GET, POST } = dealRoutes.deals;
