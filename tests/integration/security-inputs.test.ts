import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnswersPageView } from '@/lib/bff/applications';
import { BffErrorBody } from '@/lib/bff/errors';
import { InvitationCreated } from '@/lib/bff/invitations';
import { webhookHeaders } from '@/server/sandbox/webhooks/sign';
import { LIVE_STREAM_CAPS } from '@/server/live/stream-caps';
import { BffClient, bffStack, signedIn } from './support/bff';
import { createBusiness } from './support/bff-businesses';
import { freshApplication } from './support/applications';
import { KEYS, SandboxClient } from './support/sandbox';
import type { RunningSandbox } from '@/server/sandbox/server';
import { poller } from '../support/poller';

/*
 * Edges an attacker reaches, sent the way an attacker sends them: links never built from request headers,
 * input that answered 500 (a `next` that cannot go into a header, JSON nested past the stack), what an
 * unauthenticated sender can write into the log, how many live streams one session or address can hold, and one
 * set of upload checks for every upload route.
 */

let staff: BffClient;
beforeAll(async () => {
  staff = (await signedIn('staff')).client;
});

const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);

/** A request with exactly these headers, Host included (fetch would put the URL's host there). */
function raw(method: string, path: string, headers: Record<string, string>, body?: string) {
  const url = new URL(bffStack().url);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('links the app hands out', () => {
  it('name the app’s own origin whatever Host, X-Forwarded-Host and X-Forwarded-Proto say', async () => {
    const { created } = await createBusiness(staff);
    const path = `/api/applications/${created.application.id}/invitations`;
    const forgeries: Array<Record<string, string>> = [
      { Host: 'evil.example' },
      { Host: 'evil.example', 'X-Forwarded-Proto': 'javascript' },
      { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https', Forwarded: 'host=evil.example;proto=https' },
    ];
    for (const forged of forgeries) {
      const headers: Record<string, string> = {
        Host: new URL(staff.base).host,
        Cookie: staff.cookieHeader(),
        'Content-Type': 'application/json',
        'X-CSRF': '1',
        Origin: staff.base,
        ...forged,
      };
      const r = await raw('POST', path, headers, '{}');
      expect(r.status, `${JSON.stringify(forged)}: ${r.text.slice(0, 300)}`).toBe(201);
      const { link } = InvitationCreated.parse(JSON.parse(r.text));
      expect(new URL(link).origin, JSON.stringify(forged)).toBe(bffStack().url);
    }
  });
});

describe('input that answered 500', () => {
  it('a `next` the Location header cannot hold, while signed in: 303 to that path on this site, encoded', async () => {
    for (const [next, to] of [
      ['/%E3%80%82/evil', '/%E3%80%82/evil'],
      ['/%E2%80%AE/x?y=%E2%82%AC', '/%E2%80%AE/x?y=%E2%82%AC'],
      ['//evil.example', '/'],
      ['/%5Cevil.example', '/'],
      ['https://evil.example', '/'],
    ]) {
      const r = await staff.get(`/sign-in?next=${next}`, { headers: { Accept: 'text/html' } });
      expect(r.status, `${next}: ${r.text.slice(0, 200)}`).toBe(303);
      const location = r.headers.get('location')!;
      expect(new URL(location, staff.base).origin, next).toBe(staff.base);
      expect(location.replace(staff.base, ''), next).toBe(to);
    }
  });

  it('an answer nested 100,000 arrays deep: 400 in the error shape, and the form unchanged', async () => {
    const applicationId = await freshApplication(portal(), 'Deep Answer Ltd');
    const base = `/api/applications/${applicationId}/answers`;
    const page = AnswersPageView.parse((await staff.get(base)).body);
    const field = page.items.find((i) => i.value_type === 'string')!;
    const deep = `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`;
    const body = `{"answers_revision":${page.answers_revision},"answers":[{"block_key":"${field.block_key}","schema_key":"${field.schema_key}","field_key":"${field.field_key}","value":${deep}}]}`;
    const r = await staff.patch(base, { ifMatch: page.etag, body });
    expect(r.status, r.text.slice(0, 300)).toBe(400);
    expect(BffErrorBody.parse(r.body).error).toMatchObject({ code: 'invalid_request', details: [expect.objectContaining({ code: 'too_deep' })] });
    expect(AnswersPageView.parse((await staff.get(base)).body).answers_revision).toBe(page.answers_revision);
  });

  it('a signed webhook delivery nested 200,000 deep: 400 in the error shape, not stored', async () => {
    const id = `msg_deep_${randomBytes(6).toString('hex')}`;
    const body = `{"type":"application.answers_updated","timestamp":"${new Date().toISOString()}","data":{"application_id":"ciappl_x","deep":${'['.repeat(200_000)}${']'.repeat(200_000)}}}`;
    const headers = { 'Content-Type': 'application/json', ...webhookHeaders({ secret: bffStack().webhookSecret, id, timestamp: new Date(), body }) };
    const res = await fetch(`${bffStack().url}/api/webhooks/portal`, { method: 'POST', headers, body });
    const json: unknown = await res.json();
    expect(res.status, JSON.stringify(json).slice(0, 300)).toBe(400);
    expect(BffErrorBody.parse(json).error.details[0]).toMatchObject({ code: 'too_deep' });
  });
});

describe('the log', () => {
  it('keeps 200 characters of a webhook-id nobody signed (a 15,000-character one)', async () => {
    const marker = `msg_huge_${randomBytes(6).toString('hex')}_`;
    const id = marker + 'x'.repeat(15_000);
    const res = await fetch(`${bffStack().url}/api/webhooks/portal`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    await res.body?.cancel();
    const line = await poller({ timeoutMs: 15_000, everyMs: 100 })(
      async () => readFileSync(bffStack().logFile, 'utf8').split('\n').find((l) => l.includes(marker)) ?? null,
      (l) => l !== null,
      'the refusal’s log line',
    );
    expect(JSON.parse(line!)).toMatchObject({ msg: 'webhook refused', code: 'webhook_signature_invalid' });
    expect(line!.length).toBeLessThan(1_000);
    expect(JSON.parse(line!).webhook_id).toBe(`${id.slice(0, 200)}… (${id.length} characters)`);
  });
});

/** A live stream of a business opened with these headers; closed by the caller. */
async function stream(client: BffClient, businessId: string, headers: Record<string, string> = {}) {
  const ac = new AbortController();
  const res = await fetch(`${client.base}/api/events?business_id=${businessId}`, { headers: { Accept: 'text/event-stream', Cookie: client.cookieHeader(), ...headers }, signal: ac.signal });
  if (res.status === 200) {
    // The first bytes: the stream is open and counted.
    await res.body!.getReader().read();
  } else {
    await res.text();
  }
  return { status: res.status, retryAfter: res.headers.get('retry-after'), close: () => ac.abort() };
}

describe('live-update streams', () => {
  it(`are held to ${LIVE_STREAM_CAPS.perSession} per session: the next is a 429 until one closes`, async () => {
    const { client } = await signedIn('staff');
    const open = [];
    try {
      for (let i = 0; i < LIVE_STREAM_CAPS.perSession; i++) open.push(await stream(client, 'biz_harbourcafe'));
      expect(open.map((s) => s.status)).toEqual(Array(LIVE_STREAM_CAPS.perSession).fill(200));
      const refused = await stream(client, 'biz_harbourcafe');
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      open.pop()!.close();
      // The server learns of the close when the connection ends: wait for the place to come back.
      const again = await poller({ timeoutMs: 10_000, everyMs: 100 })(
        () => stream(client, 'biz_harbourcafe'),
        (s) => s.status === 200 || (s.close(), false),
        'a place freed by a closed stream',
      );
      open.push(again);
    } finally {
      for (const s of open) s.close();
    }
  });

  it(`are held to ${LIVE_STREAM_CAPS.perAddress} per client address, whatever the sessions`, { timeout: 180_000 }, async () => {
    const address = `198.51.100.${1 + (randomBytes(1)[0]! % 250)}`;
    const from = { 'X-Forwarded-For': address };
    const open: Array<{ status: number; close: () => void }> = [];
    try {
      const sessions = LIVE_STREAM_CAPS.perAddress / LIVE_STREAM_CAPS.perSession;
      for (let n = 0; n < sessions; n++) {
        const { client } = await signedIn('staff');
        open.push(...(await Promise.all(Array.from({ length: LIVE_STREAM_CAPS.perSession }, () => stream(client, 'biz_harbourcafe', from)))));
      }
      expect(open.filter((s) => s.status === 200)).toHaveLength(LIVE_STREAM_CAPS.perAddress);
      const { client: another } = await signedIn('staff');
      const refused = await stream(another, 'biz_harbourcafe', from);
      expect(refused.status).toBe(429);
      const elsewhere = await stream(another, 'biz_harbourcafe', { 'X-Forwarded-For': '192.0.2.77' });
      open.push(elsewhere);
      expect(elsewhere.status).toBe(200);
    } finally {
      for (const s of open) s.close();
    }
  });
});

describe('a new business’s document slot', () => {
  it('refuses what the application’s file questions refuse (one set of checks): an HTML page', async () => {
    const { created } = await createBusiness(staff);
    const slot = created.uploads[0]!;
    const url = `/api/businesses/${created.business.id}/uploads/${slot.id}?filename=page.html`;
    const r = await staff.post(url, { body: new TextEncoder().encode('<script>alert(1)</script>'), headers: { 'Content-Type': 'text/html', 'X-Filename': 'page.html' } });
    expect(r.status, r.text).toBe(422);
    // Refused by the app before a byte went on (no upstream request), as the file questions refuse it.
    expect(BffErrorBody.parse(r.body).error).toMatchObject({ request_id: null, details: [expect.objectContaining({ code: 'unsupported_type', parameter: 'Content-Type' })] });
    expect(r.headers.get('x-upstream-request-id')).toBeNull();
    // And the slot still takes a document the questions take.
    const ok = await staff.post(`/api/businesses/${created.business.id}/uploads/${slot.id}?filename=a.pdf`, {
      body: new TextEncoder().encode('%PDF-1.4 slot'),
      headers: { 'Content-Type': 'application/pdf', 'X-Filename': 'a.pdf' },
    });
    expect(ok.status, ok.text).toBe(201);
  });
});
