import { reviewRoutes } from '@/server/review/review-routes';

export const { GET } = reviewRoutes.review;
