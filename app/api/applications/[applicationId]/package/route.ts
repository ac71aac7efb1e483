import { packageRoutes } from '@/server/package/package-routes';

// GET /api/applications/[applicationId]/package – the funder package: a ZIP of the PDF and every document (staff)
export const { GET } = packageRoutes.package;
