import { packageRoutes } from '@/server/package/package-routes';

// GET /api/applications/[applicationId]/pdf – the application as a PDF (staff; the invited client for its own)
export const { GET } = packageRoutes.pdf;
