import type { InvitationView } from './invitations';

// Without zod (unlike invitations.ts, which re-exports it): the business page's client code uses it.

/**
 * Where a client's invitation stands, in a few words, from the application's invitations newest first:
 * the newest decides (an older one revoked or expired no longer matters once a new one is out).
 */
export function invitationStateText(newestFirst: readonly InvitationView[]): string {
  const latest = newestFirst[0];
  if (!latest) return 'Not invited';
  if (latest.status === 'revoked') return 'Invitation revoked';
  if (latest.status === 'expired') return latest.use_count > 0 ? 'Invitation expired (it was opened)' : 'Invitation expired, never opened';
  if (latest.use_count === 0) return 'Invited, not opened yet';
  return `Invited, opened ${latest.use_count === 1 ? 'once' : `${latest.use_count} times`}`;
}
