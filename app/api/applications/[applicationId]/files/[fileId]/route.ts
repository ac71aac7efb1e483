import { intakeApplicationRoutes } from '@/server/applications/kind-routes';

// DELETE /api/applications/[applicationId]/files/[fileId] – remove an attached file
export const { DELETE } = intakeApplicationRoutes.file;
