import { reviewRoutes } from '@/server/review/review-routes';

export const { POST } = reviewRoutes.requests;
