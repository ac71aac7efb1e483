import { invitationRoutes } from '@/server/invitations/invitation-routes';

export const { POST } = invitationRoutes.invitationAccept;
