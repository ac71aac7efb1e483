import { intakeApplicationRoutes } from '@/server/application-kinds/routes';

// GET /api/applications/[applicationId]/form – everything the form opens with
export const { GET } = intakeApplicationRoutes.form;
