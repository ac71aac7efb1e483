import { dealApplicationRoutes } from '@/server/applications/kind-routes';

// GET /api/deal-applications/[dealApplicationId]/files/[fileId]/download – the file's bytes, streamed from the Portal (the signed download URL never reaches the browser)
export const { GET } = dealApplicationRoutes.fileDownload;
