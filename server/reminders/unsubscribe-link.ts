import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { getEnv } from '@/server/env';
import { INVITATION_ID_PATTERN } from '@/lib/bff/invitations';

// A key of its own, derived from the session secret: a signature made for one purpose proves nothing in another.
// Derived once per secret: a reminder tick signs thousands of links.
let derived: { secret: string; key: Buffer } | null = null;
function key(): Buffer {
  const secret = getEnv().sessionSecret;
  if (derived?.secret !== secret) derived = { secret, key: createHmac('sha256', secret).update('one-click unsubscribe link').digest() };
  return derived.key;
}
const signatureOf = (invitationId: string) => createHmac('sha256', key()).update(`unsubscribe:${invitationId}`).digest('base64url');

/** The token of an invitation's unsubscribe link: its id and a signature only this app can make. */
export const unsubscribeToken = (invitationId: string) => `${invitationId}.${signatureOf(invitationId)}`;

/** The invitation a token was signed for, or null when it was made up or altered. */
export function verifyUnsubscribeToken(token: string): string | null {
  const [id, signature, ...rest] = token.split('.');
  if (!id || !signature || rest.length > 0 || !INVITATION_ID_PATTERN.test(id)) return null;
  const expected = Buffer.from(signatureOf(id));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

/** The one-click address (RFC 8058): a POST there unsubscribes, a GET shows a page asking first. */
export const unsubscribeUrl = (origin: string, invitationId: string) => `${origin}/api/unsubscribe/${unsubscribeToken(invitationId)}`;
