import { messageRoutes } from '@/server/messages/message-routes';

export const { POST } = messageRoutes.invitationResend;
