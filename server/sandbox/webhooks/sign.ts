import { Webhook } from 'standardwebhooks';

/**
 * Signing deliveries per Standard Webhooks (https://www.standardwebhooks.com/) with the reference package.
 * A delivery carries `webhook-id` (the same on every retry), `webhook-timestamp` (seconds, fresh on every
 * attempt) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`, keyed with the base64
 * part of a `whsec_…` secret).
 */

export type WebhookSecret = string | Uint8Array;
export type WebhookBody = string | Uint8Array;

const webhookOf = (secret: WebhookSecret) => (typeof secret === 'string' ? new Webhook(secret) : new Webhook(secret, { format: 'raw' }));

/** The key bytes of a secret (`whsec_<base64>`, bare base64 or raw bytes); throws when the package refuses it. */
export function webhookSecretKey(secret: WebhookSecret): Buffer {
  webhookOf(secret);
  return typeof secret === 'string' ? Buffer.from(secret.replace(/^whsec_/, ''), 'base64') : Buffer.from(secret);
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
  return webhookOf(secret).sign(id, new Date(seconds(timestamp) * 1000), typeof body === 'string' ? body : Buffer.from(body));
}

/** The three Standard Webhooks headers for a delivery attempt. */
export function webhookHeaders(input: SignInput): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(seconds(input.timestamp)),
    'webhook-signature': signWebhook(input),
  };
}
