import { reviewMarkRoutes } from '@/server/review/review-marks-routes';

export const { GET, POST } = reviewMarkRoutes.marks;
