import { businessRoutes } from '@/server/businesses/business-routes';

export const { GET } = businessRoutes.portal;
