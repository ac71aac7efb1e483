import { invitationRoutes } from '@/server/invitations/invitation-routes';

export const { PUT } = invitationRoutes.place;
