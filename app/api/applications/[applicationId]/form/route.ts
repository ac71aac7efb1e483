import { intakeApplicationRoutes } from '@/server/applications/kind-routes';

// GET /api/applications/[applicationId]/form – everything the form opens with
export const { GET } = intakeApplicationRoutes.form;
