import { dealRoutes } from '@/server/deals/deal-routes';

export const { GET } = dealRoutes.dealPipelines;
