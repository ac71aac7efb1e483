import { intakeApplicationRoutes } from '@/server/applications/kind-routes';

// GET /api/applications/[applicationId]/contract – the questions the form is rendered from
export const { GET } = intakeApplicationRoutes.contract;
