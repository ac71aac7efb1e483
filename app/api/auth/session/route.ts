import { authRoutes } from '@/server/auth/auth-routes';

export const { GET } = authRoutes.session;
