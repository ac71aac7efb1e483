import { intakeApplicationRoutes } from '@/server/applications/kind-routes';

// POST /api/applications/[applicationId]/submit – submit (If-Match, Idempotency-Key); missing answers come back as a 422, a 412 with the application as it is now
export const { POST } = intakeApplicationRoutes.submit;
