import { csvRoutes } from '@/server/package/csv-routes';

// GET /api/projects/[projectId]/matches/csv – the latest run's matches as CSV, best first (staff, reviewers)
export const { GET } = csvRoutes.matches;
