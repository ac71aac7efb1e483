import { probeRoutes } from '@/server/ops/probe-routes';

export const { GET } = probeRoutes.health;
