import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswersPageView } from '@/lib/bff/applications';
import { webhookHeaders } from '@/server/sandbox/webhooks/sign';
import { newWebhookSecret } from '@/server/webhooks/verify';
import type { RunningSandbox } from '@/server/sandbox/server';
import { freshApplication } from './support/applications';
import { bffDb, bffStack, signedIn } from './support/bff';
import { KEYS, SandboxClient } from './support/sandbox';
import { openEventStream, postDelivery, signedDelivery, type OpenStream } from './support/sse';
import { logCaughtUp } from './support/upstream-log';

/*
 * POST /api/webhooks/portal: Standard Webhooks deliveries from the Portal. A delivery is taken in only
 * when its signature (over the exact body) matches our secret, its timestamp is within 5 minutes, and its
 * webhook-id is new; then it is stored and announced to the streams of the objects it names. Everything
 * refused is neither stored nor announced.
 */

const appId = () => `ciappl_live${randomBytes(6).toString('hex')}`;
const newId = (what: string) => `msg_${what}_${randomBytes(6).toString('hex')}`;

async function storedIds(ids: string[]) {
  const rows = await (await bffDb()).query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE id = ANY($1::text[]) ORDER BY id', [ids]);
  return rows.map((r) => r.id);
}

describe('the webhook receiver', () => {
  const application = appId();
  let stream: OpenStream;
  let base: string;
  let secret: string;

  beforeAll(async () => {
    ({ url: base, webhookSecret: secret } = bffStack());
    const { client } = await signedIn('staff');
    stream = await openEventStream(client, `application_id=${application}`);
    expect(stream.status).toBe(200);
  });
  afterAll(() => stream?.close());

  it('stores a valid delivery with the ids it concerns, answers 200, and announces it to the open stream', async () => {
    const d = signedDelivery(secret, {
      type: 'application.answers_updated',
      data: { application_id: application, object: 'client_intake_application', answers_revision: 7 },
    });
    const r = await postDelivery(base, d);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ received: true, id: d.id });

    const row = await (await bffDb()).one<Record<string, unknown>>(
      'SELECT event_type, application_id, business_id, deal_id, payload, sent_at FROM webhook_deliveries WHERE id = $1',
      [d.id],
    );
    expect(row).toMatchObject({ event_type: 'application.answers_updated', application_id: application, business_id: null, deal_id: null });
    expect(row!.payload).toEqual(JSON.parse(d.body));

    const event = await stream.next((m) => m.id === d.id);
    expect(event).toMatchObject({ type: 'application.answers_updated', application_id: application, answers_revision: 7 });
    // The browser is told what changed, not the payload.
    expect(Object.keys(event).sort()).toEqual(['answers_revision', 'application_id', 'business_id', 'deal_id', 'id', 'occurred_at', 'project_id', 'run_progress', 'type']);
    expect(event.run_progress).toBeNull();
  });

  it('refuses forged, wrongly signed, expired, future and malformed deliveries, and acknowledges a duplicate without taking it in again', async () => {
    const event = { type: 'application.submitted', data: { application_id: application, business_id: 'biz_live1' } };
    const refused: Array<{ what: string; status: number; code: string; id: string; send: () => ReturnType<typeof postDelivery> }> = [];
    const add = (what: string, status: number, code: string, make: (id: string) => { body: string; headers: Record<string, string> }) => {
      const id = newId(what.replace(/\W+/g, '_'));
      refused.push({ what, status, code, id, send: () => postDelivery(base, make(id)) });
    };

    add('forged signature', 401, 'webhook_signature_invalid', (id) => {
      const d = signedDelivery(secret, event, { id });
      return { ...d, headers: { ...d.headers, 'webhook-signature': `v1,${randomBytes(32).toString('base64')}` } };
    });
    add('signed with another secret', 401, 'webhook_signature_invalid', (id) => signedDelivery(newWebhookSecret(), event, { id }));
    add('body changed after signing', 401, 'webhook_signature_invalid', (id) => {
      const d = signedDelivery(secret, event, { id });
      return { ...d, body: d.body.replace('application.submitted', 'application.answers_updated') };
    });
    add('expired timestamp', 400, 'webhook_timestamp_invalid', (id) => signedDelivery(secret, event, { id, timestamp: new Date(Date.now() - 6 * 60_000) }));
    add('future timestamp', 400, 'webhook_timestamp_invalid', (id) => signedDelivery(secret, event, { id, timestamp: new Date(Date.now() + 6 * 60_000) }));
    add('no signature headers', 400, 'invalid_request', (id) => ({ body: signedDelivery(secret, event, { id }).body, headers: { 'Content-Type': 'application/json', 'webhook-id': id } }));
    add('signed body that is not JSON', 400, 'invalid_request', (id) => {
      const body = 'not json';
      return { body, headers: { 'Content-Type': 'application/json', ...webhookHeaders({ secret, id, timestamp: new Date(), body }) } };
    });
    add('signed JSON that is not an event', 400, 'invalid_request', (id) => {
      const body = JSON.stringify({ data: { application_id: application } });
      return { body, headers: { 'Content-Type': 'application/json', ...webhookHeaders({ secret, id, timestamp: new Date(), body }) } };
    });

    for (const r of refused) {
      const reply = await r.send();
      expect(reply.status, `${r.what}: ${reply.text}`).toBe(r.status);
      expect(reply.body.error?.code, r.what).toBe(r.code);
      expect(reply.headers.get('cache-control'), r.what).toBe('private, no-store');
    }
    expect(await storedIds(refused.map((r) => r.id))).toEqual([]);

    // A duplicate: the same delivery again (even re-signed with a fresh timestamp, as the sender's retry would be).
    // Standard Webhooks senders retry every non-2xx, so it is acknowledged (2xx), and not stored or announced again.
    const original = signedDelivery(secret, event, { id: newId('replayed') });
    expect((await postDelivery(base, original)).body).toEqual({ received: true, id: original.id });
    for (const again of [original, signedDelivery(secret, event, { id: original.id })]) {
      const reply = await postDelivery(base, again);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ received: true, id: original.id, duplicate: true });
    }
    expect(await storedIds([original.id])).toEqual([original.id]);

    // A last valid one: once it is on the stream, everything sent before it has had its chance to arrive.
    const marker = signedDelivery(secret, { type: 'autofill_run.completed', data: { application_id: application, run_id: 'afrun_x' } });
    expect((await postDelivery(base, marker)).status).toBe(200);
    await stream.next((m) => m.id === marker.id);
    const seen = stream.messages.map((m) => m.id);
    expect(seen.filter((id) => id === original.id)).toHaveLength(1);
    for (const r of refused) expect(seen, r.what).not.toContain(r.id);
  });

  it('needs no session and no CSRF header (server to server), and never writes the secret to the log', async () => {
    const d = signedDelivery(secret, { type: 'business.created', data: { business_id: 'biz_live2', application_id: application } });
    const r = await postDelivery(base, { ...d, headers: { ...d.headers, Origin: 'https://portal.example', 'Sec-Fetch-Site': 'cross-site' } });
    expect(r.status, r.text).toBe(200);
    const key = secret.slice('whsec_'.length);
    // Read once a line logged after the delivery has arrived, so the delivery's own lines are in it.
    await logCaughtUp((await signedIn('staff')).client);
    expect(readFileSync(bffStack().logFile, 'utf8')).not.toContain(key);
  });

  it('takes in what the sandbox sends by itself: an answer write arrives as application.answers_updated', async () => {
    const { client } = await signedIn('staff');
    const portal = new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);
    const real = await freshApplication(portal, 'Live Webhook Ltd');
    const live = await openEventStream(client, `application_id=${real}`);
    try {
      const page = AnswersPageView.parse((await client.get(`/api/applications/${real}/answers?page_size=500`)).body);
      const text = page.items.find((i) => i.value_type === 'string' && i.allowed_values.length === 0)!;
      const write = await client.patch(`/api/applications/${real}/answers`, {
        ifMatch: page.etag,
        body: { answers_revision: page.answers_revision, answers: [{ block_key: text.block_key, schema_key: text.schema_key, field_key: text.field_key, value: 'Live Ltd' }] },
      });
      expect(write.status, write.text).toBe(200);
      const event = await live.next((m) => m.type === 'application.answers_updated');
      expect(event).toMatchObject({ application_id: real, answers_revision: page.answers_revision + 1 });
    } finally {
      live.close();
    }
  });
});
