import 'server-only';
import { getEnv } from '@/server/env';
import { AppError } from '@/server/http/app-error';
import { route } from '@/server/http/route';
import { clip, log } from '@/server/log';
import { recordWebhook } from '@/server/ops/metrics';
import { SpanKind, inSpan } from '@/server/ops/tracing';
import { receiveWebhook } from '@/server/webhooks/receive';
import { api } from '@/lib/api/endpoints';

// POST /api/webhooks/portal – the Portal's Standard Webhooks deliveries: verified, stored once, announced live
const webhooks_POST = route(api.webhooks.POST, { roles: 'public', csrf: false, body: 'stream' }, async ({ req, db }) => {
  const secret = getEnv().webhookSecret;
  if (!secret) throw new AppError('webhooks_disabled', 'This app receives no webhooks: WEBHOOK_SECRET is not configured.');
  const raw = await req.text();
  try {
    const received = await inSpan('webhook receive', SpanKind.INTERNAL, {}, async (span) => {
      const r = await receiveWebhook(db, secret, req.headers, raw);
      span?.setAttributes({ 'webhook.type': r.type, 'webhook.duplicate': r.duplicate });
      return r;
    });
    recordWebhook(received.duplicate ? 'duplicate' : 'accepted');
    if (received.duplicate) {
      log.info('webhook duplicate acknowledged', { webhook_id: received.id, type: received.type });
      return { body: { received: true, id: received.id, duplicate: true } };
    }
    log.info('webhook received', { webhook_id: received.id, type: received.type });
    return { body: { received: true, id: received.id } };
  } catch (err) {
    // The id is the sender's word until the signature checks out: only its start is logged.
    recordWebhook('refused');
    if (err instanceof AppError) log.warn('webhook refused', { webhook_id: clip(req.headers.get('webhook-id')), code: err.code, reason: err.message });
    throw err;
  }
});

/** The route handlers of webhook: each route file under app/api re-exports its methods. */
export const webhookRoutes = {
  webhooks: { POST: webhooks_POST },
};
