import { webhookRoutes } from '@/server/webhooks/webhook-routes';

export const { POST } = webhookRoutes.webhooks;
