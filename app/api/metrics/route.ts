import { metricsRoutes } from '@/server/ops/metrics-route';

export const { GET } = metricsRoutes.metrics;
