import { csvRoutes } from '@/server/package/csv-routes';

// GET /api/deals/csv – every deal as CSV, newest first, with its business (staff)
export const { GET } = csvRoutes.deals;
