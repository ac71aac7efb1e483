import 'server-only';
import { randomBytes } from 'node:crypto';

/** Opaque record id such as `usr_3f9a…`: a readable prefix, then 96 random bits so ids reveal no order or count. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** A bearer secret (session id, invitation token): 256 random bits, URL-safe. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Shape of newSecretToken's output; checked before any lookup so junk never reaches the database. */
export const SECRET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
