import { intakeApplicationRoutes } from '@/server/applications/kind-routes';

// GET /api/applications/[applicationId] – the application with its status (and progress); its ETag is what submit quotes
export const { GET } = intakeApplicationRoutes.application;
