import 'server-only';
import { randomBytes, randomFillSync } from 'node:crypto';

const ID_BYTES = 12;
// Random bytes drawn 4 KiB at a time (as crypto.randomUUID does): one call into the system's generator per 341
// ids instead of one per id, which a reminder tick minting 10,000 ids at once notices.
const pool = Buffer.alloc(ID_BYTES * 341);
let used = pool.length;

/** Opaque record id such as `usr_3f9a…`: a readable prefix, then 96 random bits so ids reveal no order or count. */
export function newId(prefix: string): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += ID_BYTES;
  return `${prefix}_${pool.toString('hex', used - ID_BYTES, used)}`;
}

/** A bearer secret (session id, invitation token): 256 random bits, URL-safe. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Shape of newSecretToken's output; checked before any lookup so junk never reaches the database. */
export const SECRET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
