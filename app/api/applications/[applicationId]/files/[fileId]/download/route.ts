import { intakeApplicationRoutes } from '@/server/applications/kind-routes';

// GET /api/applications/[applicationId]/files/[fileId]/download – the file's bytes, streamed from the Portal (the signed download URL never reaches the browser)
export const { GET } = intakeApplicationRoutes.fileDownload;
