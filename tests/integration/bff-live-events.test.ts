import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '@/server/sandbox/server';
import { freshApplication } from './support/applications';
import { anotherInstance } from './support/another-instance';
import { BffClient, bffStack, clientSessionFor, signedIn } from './support/bff';
import { KEYS, SandboxClient } from './support/sandbox';
import { openEventStream, postDelivery, signedDelivery } from './support/sse';

/*
 * GET /api/events: server-sent events about one application, business or deal, for the pages that have
 * it open. A session is required, a client reaches only its own application, and an event received by
 * any instance of the app reaches the streams of every instance sharing the database.
 */

const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);

describe('who may open a stream', () => {
  let mine: string;
  let other: string;
  beforeAll(async () => {
    [mine, other] = await Promise.all([freshApplication(portal(), 'Live Client Ltd'), freshApplication(portal(), 'Live Other Ltd')]);
  });

  it('refuses a caller without a session (401)', async () => {
    const s = await openEventStream(new BffClient(), `application_id=${mine}`);
    expect(s.status).toBe(401);
    expect(JSON.parse(s.text).error.code).toBe('unauthenticated');
  });

  it('needs exactly one well-formed id (400)', async () => {
    const { client } = await signedIn('staff');
    for (const q of ['', `application_id=${mine}&business_id=biz_x1`, 'application_id=nope', 'deal_id=biz_x1', `application_id=${mine}&extra=1`]) {
      const s = await openEventStream(client, q);
      expect(s.status, q).toBe(400);
      expect(JSON.parse(s.text).error.code, q).toBe('invalid_request');
    }
  });

  it('streams a client its own application, and answers 404 for any other application, business or deal', async () => {
    const client = await clientSessionFor(mine);
    const own = await openEventStream(client, `application_id=${mine}`);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(own.headers.get('cache-control')).toContain('no-store');
    expect(own.raw()).toMatch(/^retry: \d+\n/);
    own.close();
    for (const q of [`application_id=${other}`, 'business_id=biz_live3', 'deal_id=deal_live3', 'application_id=dapp_live3']) {
      const s = await openEventStream(client, q);
      expect(s.status, q).toBe(404);
      expect(JSON.parse(s.text).error.code, q).toBe('not_found');
      expect(s.text).not.toContain(other);
    }
  });

  it('streams a reviewer applications, and leaves businesses, deals and deal applications to staff', async () => {
    const { client: reviewer } = await signedIn('reviewer');
    const ok = await openEventStream(reviewer, `application_id=${other}`);
    expect(ok.status).toBe(200);
    ok.close();
    for (const q of ['business_id=biz_live4', 'deal_id=deal_live4', 'application_id=dapp_live4']) {
      expect((await openEventStream(reviewer, q)).status, q).toBe(403);
    }
    const { client: staff } = await signedIn('staff');
    for (const q of ['business_id=biz_live4', 'deal_id=deal_live4', 'application_id=dapp_live4']) {
      const s = await openEventStream(staff, q);
      expect(s.status, q).toBe(200);
      s.close();
    }
  });
});

describe('what a stream carries', () => {
  it('delivers an event to the streams of each object it names, and to no other', async () => {
    const { url, webhookSecret } = bffStack();
    const { client } = await signedIn('staff');
    const tag = randomBytes(5).toString('hex');
    const [app, business, deal, unrelated] = await Promise.all([
      openEventStream(client, `application_id=dapp_${tag}`),
      openEventStream(client, `business_id=biz_${tag}`),
      openEventStream(client, `deal_id=deal_${tag}`),
      openEventStream(client, `business_id=biz_other${tag}`),
    ]);
    try {
      const d = signedDelivery(webhookSecret, {
        type: 'deal.stage_changed',
        data: { deal_id: `deal_${tag}`, business_id: `biz_${tag}`, application_id: `dapp_${tag}`, stage: { id: 'dstg_1', name: 'Won' } },
      });
      expect((await postDelivery(url, d)).status).toBe(200);
      for (const s of [app, business, deal]) {
        expect(await s.next((m) => m.id === d.id)).toMatchObject({ type: 'deal.stage_changed', deal_id: `deal_${tag}`, business_id: `biz_${tag}` });
      }
      const marker = signedDelivery(webhookSecret, { type: 'business.stage_changed', data: { business_id: `biz_other${tag}` } });
      expect((await postDelivery(url, marker)).status).toBe(200);
      await unrelated.next((m) => m.id === marker.id);
      expect(unrelated.messages.map((m) => m.id)).toEqual([marker.id]);
    } finally {
      for (const s of [app, business, deal, unrelated]) s.close();
    }
  });
});

describe('several instances on one PostgreSQL', () => {
  // The same app and database, but this instance does not receive webhooks itself.
  const second = anotherInstance({ name: 'live-b', without: ['WEBHOOK_SECRET'] });

  it('brings an event received by instance A to a stream opened on instance B', async () => {
    const { url: a, webhookSecret } = bffStack();
    const b = second().url;
    const application = `ciappl_multi${randomBytes(5).toString('hex')}`;
    const { client } = await signedIn('staff');
    // The session lives in the shared database, so instance B knows the cookie A issued.
    const stream = await openEventStream(client, `application_id=${application}`, b);
    try {
      expect(stream.status).toBe(200);
      const d = signedDelivery(webhookSecret, { type: 'application.answers_updated', data: { application_id: application, answers_revision: 3 } });
      expect((await postDelivery(a, d)).status).toBe(200);
      expect(await stream.next((m) => m.id === d.id)).toMatchObject({ application_id: application, answers_revision: 3 });

      // B has no WEBHOOK_SECRET: it says so instead of taking deliveries it cannot check.
      const refused = await postDelivery(b, signedDelivery(webhookSecret, { type: 'application.submitted', data: { application_id: application } }));
      expect(refused.status).toBe(503);
      expect(refused.body.error?.code).toBe('webhooks_disabled');
    } finally {
      stream.close();
    }
  });
});
