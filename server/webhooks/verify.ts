import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Verifying the Portal's Standard Webhooks deliveries (https://www.standardwebhooks.com/), with the reference
 * package for the secret, the signed content and the HMAC. The timestamp window is checked here rather than by
 * `Webhook.verify`, which reads the wall clock with a fixed tolerance: the receiver takes its clock and
 * tolerance as arguments, accepts several secrets while one is rotated, and says which check failed.
 * No 'server-only' here: the launcher (plain Node) makes the secret it shares with the sandbox.
 */

export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export type WebhookSecret = string | Uint8Array;
export type WebhookBody = string | Uint8Array;
/** A Fetch `Headers`, or a plain record such as node's `IncomingHttpHeaders` (names matched case-insensitively). */
export type WebhookHeaderSource = Headers | Record<string, string | string[] | undefined>;

/** A new random secret in the `whsec_` form (32 key bytes). */
export function newWebhookSecret(bytes = 32): string {
  return `whsec_${randomBytes(bytes).toString('base64')}`;
}

export type WebhookVerifyFailure =
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'no_matching_signature';

export type WebhookVerifyResult =
  | { ok: true; id: string; timestamp: number }
  | { ok: false; reason: WebhookVerifyFailure; message: string };

export interface VerifyInput {
  /** One secret, or several while a secret is being rotated (any may match). */
  secret: WebhookSecret | WebhookSecret[];
  headers: WebhookHeaderSource;
  /** The raw body exactly as received (never re-serialised JSON). */
  body: WebhookBody;
  /** How far the timestamp may be from `now`, either way; default 300 s. */
  toleranceSeconds?: number;
  /** The current time: a Date or milliseconds since the epoch; default now. */
  now?: Date | number;
}

function header(headers: WebhookHeaderSource, name: string): string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  const rec = headers as Record<string, string | string[] | undefined>;
  let v = rec[name];
  if (v === undefined) {
    const found = Object.keys(rec).find((k) => k.toLowerCase() === name);
    v = found === undefined ? undefined : rec[found];
  }
  return Array.isArray(v) ? v.join(' ') : v;
}

/** The package's signer for a secret: `whsec_<base64>` or bare base64, or raw key bytes. Throws when malformed. */
const webhookOf = (secret: WebhookSecret) => (typeof secret === 'string' ? new Webhook(secret) : new Webhook(secret, { format: 'raw' }));

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const fail = (reason: WebhookVerifyFailure, message: string): WebhookVerifyResult => ({ ok: false, reason, message });

/**
 * Verifies a delivery: headers present, timestamp within the tolerance, and at least one `v1` signature in the
 * header equal (constant-time) to the one the package makes with one of the secrets. Replay protection beyond
 * the tolerance window (remembering `webhook-id`s) is the receiver's job. A malformed secret throws.
 */
export function verifyWebhook({ secret, headers, body, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now }: VerifyInput): WebhookVerifyResult {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const sig = header(headers, 'webhook-signature');
  if (!id || !ts || !sig) return fail('missing_headers', 'webhook-id, webhook-timestamp and webhook-signature are required.');
  if (!/^\d{1,15}$/.test(ts)) return fail('invalid_timestamp', 'webhook-timestamp must be whole seconds since the epoch.');
  const timestamp = Number(ts);
  const nowMs = now === undefined ? Date.now() : now instanceof Date ? now.getTime() : now;
  const nowSeconds = Math.floor(nowMs / 1000);
  if (timestamp < nowSeconds - toleranceSeconds) return fail('timestamp_too_old', 'The webhook timestamp is too old.');
  if (timestamp > nowSeconds + toleranceSeconds) return fail('timestamp_too_new', 'The webhook timestamp is in the future.');

  const candidates = sig.split(/\s+/).filter((s) => s.startsWith('v1,'));
  const payload = typeof body === 'string' ? body : Buffer.from(body);
  for (const s of Array.isArray(secret) ? secret : [secret]) {
    const expected = webhookOf(s).sign(id, new Date(timestamp * 1000), payload);
    if (candidates.some((c) => sameText(c, expected))) return { ok: true, id, timestamp };
  }
  return fail('no_matching_signature', 'No webhook signature matches.');
}
