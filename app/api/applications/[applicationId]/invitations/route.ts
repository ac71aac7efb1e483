import { invitationRoutes } from '@/server/invitations/invitation-routes';

export const { GET, POST } = invitationRoutes.invitations;
