import { businessRoutes } from '@/server/businesses/business-routes';

export const { POST } = businessRoutes.businessUpload;
