import { intakeApplicationRoutes } from '@/server/application-kinds/routes';

// DELETE /api/applications/[applicationId]/files/[fileId] – remove an attached file
export const { DELETE } = intakeApplicationRoutes.file;
