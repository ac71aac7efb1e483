import 'server-only';
import { z } from 'zod';
import { ID_PATTERNS } from '@/lib/portal';
import { DEFAULT_TOLERANCE_SECONDS, verifyWebhook, type WebhookVerifyFailure } from './verify';
import type { Db } from '@/server/db/types';
import { AppError } from '@/server/http/app-error';
import { deeperThan, tooDeep } from '@/server/http/json-depth';
import { log } from '@/server/log';
import { applyEvent } from '@/server/read-model/apply-event';
import { queueRefresh, type RefreshTarget } from '@/server/read-model/refresh';
import { purgeOldDeliveries, recordDelivery } from './deliveries';

/** The Portal's delivery body (DESIGN.md §5): `{ type, timestamp, data }`. Unknown types are kept: the Portal may add some. */
const DeliveryBody = z.object({
  type: z.string().max(100).regex(/^[a-z][a-z_]*(?:\.[a-z][a-z_]*)+$/, 'not an event type'),
  timestamp: z.iso.datetime({ offset: true }),
  data: z.record(z.string(), z.unknown()),
});

const WEBHOOK_ID = /^[A-Za-z0-9_.:-]{1,200}$/;

const REFUSALS: Record<WebhookVerifyFailure, (message: string) => AppError> = {
  missing_headers: (m) => new AppError('invalid_request', m),
  invalid_timestamp: (m) => new AppError('webhook_timestamp_invalid', m),
  timestamp_too_old: (m) => new AppError('webhook_timestamp_invalid', `${m} Deliveries are accepted for ${DEFAULT_TOLERANCE_SECONDS / 60} minutes.`),
  timestamp_too_new: (m) => new AppError('webhook_timestamp_invalid', m),
  no_matching_signature: (m) => new AppError('webhook_signature_invalid', m),
};

/** An id of the data when it has its Portal shape; anything else concerns no page we could show. */
function idOf(data: Record<string, unknown>, key: string, patterns: readonly RegExp[]): string | null {
  const v = data[key];
  return typeof v === 'string' && patterns.some((p) => p.test(v)) ? v : null;
}

export interface Received {
  id: string;
  type: string;
  /** The id was already received: acknowledged, nothing stored or announced again. */
  duplicate: boolean;
}

const PURGE_EVERY_MS = 3_600_000;
let lastPurge = 0;

/**
 * One delivery from the Portal: the signature over the exact body bytes, the timestamp within the
 * tolerance, then the webhook-id. A delivery whose id we already have is acknowledged as a duplicate
 * and nothing is stored or announced again: Standard Webhooks senders retry every non-2xx, so refusing it
 * would only make the Portal send it again (and count our endpoint as failing). A replay by someone else
 * needs a valid signature within the tolerance, and still changes nothing.
 */
export async function receiveWebhook(db: Db, secret: string, headers: Headers, rawBody: string, now: Date = new Date()): Promise<Received> {
  let verified;
  try {
    verified = verifyWebhook({ secret, headers, body: rawBody, now });
  } catch {
    // Only a malformed configured secret throws here (parse-env allows base64url characters).
    throw new AppError('webhooks_disabled', 'The webhook secret of this app is not valid base64.');
  }
  if (!verified.ok) throw REFUSALS[verified.reason](verified.message);
  if (!WEBHOOK_ID.test(verified.id)) throw new AppError('invalid_request', 'webhook-id is not a valid message id.');

  if (deeperThan(rawBody)) throw tooDeep('The delivery body');
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new AppError('invalid_request', 'The delivery body is not valid JSON.');
  }
  const body = DeliveryBody.safeParse(json);
  if (!body.success) {
    throw new AppError(
      'invalid_request',
      'The delivery body is not a Portal event.',
      body.error.issues.map((i) => ({ code: 'invalid', message: i.message, parameter: i.path.join('.') })),
    );
  }
  const { type, timestamp, data } = body.data;
  let stale: RefreshTarget[] = [];
  // The workspace is fed in the delivery's transaction, in a savepoint: a read model that cannot take an event
  // must not lose the delivery (the reconciler repairs the row).
  const feed = async (tx: Db) => {
    try {
      stale = await tx.transaction((sp) => applyEvent(sp, body.data, now));
    } catch (e) {
      log.warn('read model could not apply an event', { webhook_id: verified.id, type, error: String(e) });
    }
  };
  const stored = await recordDelivery(
    db,
    {
      id: verified.id,
      type,
      sentAt: new Date(verified.timestamp * 1000),
      occurredAt: new Date(timestamp),
      applicationId: idOf(data, 'application_id', [ID_PATTERNS.application, ID_PATTERNS.dealApplication]),
      businessId: idOf(data, 'business_id', [ID_PATTERNS.business]),
      dealId: idOf(data, 'deal_id', [ID_PATTERNS.deal]),
      payload: body.data,
    },
    now,
    feed,
  );
  if (!stored) return { id: verified.id, type, duplicate: true };
  queueRefresh(stale);
  if (now.getTime() - lastPurge > PURGE_EVERY_MS) {
    lastPurge = now.getTime();
    await purgeOldDeliveries(db, now);
  }
  return { id: verified.id, type, duplicate: false };
}
