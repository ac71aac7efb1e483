import 'server-only';
import { createHash } from 'node:crypto';
import { newSecretToken, SECRET_TOKEN_PATTERN } from '@/server/db/ids';

/**
 * The link token is shown once, to the staff member who creates the invitation; the database keeps
 * only its SHA-256, so a leaked backup or a read-only SQL injection yields no usable links. A plain
 * hash suffices (no salt, no scrypt): the token has 256 random bits, nothing to guess.
 */
export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = newSecretToken();
  return { token, tokenHash: hashInvitationToken(token) };
}

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function isWellFormedInvitationToken(token: string): boolean {
  return SECRET_TOKEN_PATTERN.test(token);
}
