import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com/) signing and verification, with node:crypto only.
 *
 * A delivery carries three headers: `webhook-id` (the message id, the same on every retry),
 * `webhook-timestamp` (integer seconds since the epoch, fresh on every attempt) and `webhook-signature`
 * (space-separated `v1,<base64 HMAC-SHA256>` entries). The signed content is `${id}.${timestamp}.${body}`
 * over the exact body bytes; the key is the base64 part of a `whsec_…` secret.
 */

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export type WebhookSecret = string | Uint8Array;
export type WebhookBody = string | Uint8Array;
/** A Fetch `Headers`, or a plain record such as node's `IncomingHttpHeaders` (names matched case-insensitively). */
export type WebhookHeaderSource = Headers | Record<string, string | string[] | undefined>;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The key bytes of a secret: `whsec_<base64>` or bare base64 (as some dashboards show it), or raw bytes. */
export function webhookSecretKey(secret: WebhookSecret): Buffer {
  if (typeof secret !== 'string') {
    if (secret.length === 0) throw new Error('The webhook secret is empty.');
    return Buffer.from(secret);
  }
  const b64 = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  if (b64 === '' || !BASE64.test(b64)) throw new Error('The webhook secret must be "whsec_" followed by base64.');
  return Buffer.from(b64, 'base64');
}

/** A new random secret in the `whsec_` form (32 key bytes). */
export function newWebhookSecret(bytes = 32): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(bytes).toString('base64')}`;
}

const asBuffer = (body: WebhookBody) => (typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body));

function hmac(key: Buffer, id: string, timestamp: string, body: WebhookBody): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(asBuffer(body)).digest();
}

export interface SignInput {
  secret: WebhookSecret;
  /** The message id (`webhook-id`). */
  id: string;
  /** Seconds since the epoch (a Date is converted). */
  timestamp: number | Date;
  body: WebhookBody;
}

const seconds = (t: number | Date) => (t instanceof Date ? Math.floor(t.getTime() / 1000) : Math.floor(t));

/** The `webhook-signature` value for one secret: `v1,<base64>`. */
export function signWebhook({ secret, id, timestamp, body }: SignInput): string {
  return `v1,${hmac(webhookSecretKey(secret), id, String(seconds(timestamp)), body).toString('base64')}`;
}

/** The three Standard Webhooks headers for a delivery attempt. */
export function webhookHeaders(input: SignInput): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(seconds(input.timestamp)),
    'webhook-signature': signWebhook(input),
  };
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

const fail = (reason: WebhookVerifyFailure, message: string): WebhookVerifyResult => ({ ok: false, reason, message });

/**
 * Verifies a delivery: headers present, timestamp within the tolerance, and at least one `v1` signature in the
 * header equal (constant-time) to the HMAC of one of the secrets. Replay protection beyond the tolerance window
 * (remembering `webhook-id`s) is the receiver's job.
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

  const candidates = sig
    .split(/\s+/)
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  const secrets = Array.isArray(secret) ? secret : [secret];
  for (const s of secrets) {
    const expected = hmac(webhookSecretKey(s), id, ts, body);
    for (const c of candidates) {
      if (c.length === expected.length && timingSafeEqual(c, expected)) return { ok: true, id, timestamp };
    }
  }
  return fail('no_matching_signature', 'No webhook signature matches.');
}
