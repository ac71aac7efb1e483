import { dealApplicationRoutes } from '@/server/applications/kind-routes';

// POST /api/deal-applications/[dealApplicationId]/submit – submit (If-Match, Idempotency-Key); missing answers come back as a 422, a 412 with the application as it is now
export const { POST } = dealApplicationRoutes.submit;
