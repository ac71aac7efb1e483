import { authRoutes } from '@/server/auth/auth-routes';

export const { POST } = authRoutes.signIn;
