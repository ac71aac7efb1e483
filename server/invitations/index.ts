import 'server-only';

export { createInvitation, findInvitation, listInvitations, revokeInvitation, InvalidInvitationError } from './invitations';
export { DEFAULT_INVITATION_TTL_HOURS, MAX_INVITATION_TTL_HOURS } from './invitations';
export type { InvitationSummary, NewInvitation } from './invitations';
export { peekInvitation, redeemInvitation, type RedeemResult } from './redeem-invitation';
export { invitationStatus, type Invitation, type InvitationStatus } from './invitation-record';
