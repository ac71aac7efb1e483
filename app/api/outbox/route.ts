import { messageRoutes } from '@/server/messages/message-routes';

export const { GET } = messageRoutes.outbox;
