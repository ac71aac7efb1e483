import { csvRoutes } from '@/server/package/csv-routes';

// GET /api/workspace/businesses/csv – the businesses table as CSV, searched, filtered and sorted as on screen (staff)
export const { GET } = csvRoutes.businesses;
