import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, webhookHeaders, webhookSecretKey } from '@/server/sandbox/webhooks/sign';
import { newWebhookSecret, verifyWebhook } from '@/server/webhooks/verify';

// The test vector published with the Standard Webhooks specification.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const SECRET = 'whsec_' + Buffer.from('a-unit-test-webhook-secret-of-32b').toString('base64');
const OTHER = 'whsec_' + Buffer.from('another-webhook-secret-32-bytes!').toString('base64');
const NOW = 1_750_000_000; // seconds
const BODY = JSON.stringify({ type: 'business.created', timestamp: '2025-06-15T15:06:40.000Z', data: { business_id: 'biz_1' } });

/** Independent reference: HMAC-SHA256 over `id.timestamp.body` with the base64-decoded key. */
function reference(secret: string, id: string, ts: number | string, body: string) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64')}`;
}

const headersFor = (sig: string, ts: number | string = NOW, id = 'msg_abc') => ({
  'webhook-id': id,
  'webhook-timestamp': String(ts),
  'webhook-signature': sig,
});

describe('signWebhook', () => {
  it('reproduces the Standard Webhooks test vector', () => {
    expect(signWebhook({ secret: VECTOR.secret, id: VECTOR.id, timestamp: VECTOR.timestamp, body: VECTOR.body })).toBe(VECTOR.signature);
    // The key without its prefix and as raw bytes sign the same.
    expect(signWebhook({ secret: VECTOR.secret.slice(6), id: VECTOR.id, timestamp: VECTOR.timestamp, body: VECTOR.body })).toBe(VECTOR.signature);
    expect(signWebhook({ secret: webhookSecretKey(VECTOR.secret), id: VECTOR.id, timestamp: VECTOR.timestamp, body: Buffer.from(VECTOR.body) })).toBe(VECTOR.signature);
  });

  it('agrees with an independent HMAC computation, and takes a Date as the timestamp', () => {
    expect(signWebhook({ secret: SECRET, id: 'msg_abc', timestamp: NOW, body: BODY })).toBe(reference(SECRET, 'msg_abc', NOW, BODY));
    const h = webhookHeaders({ secret: SECRET, id: 'msg_abc', timestamp: new Date(NOW * 1000 + 999), body: BODY });
    expect(h).toEqual(headersFor(reference(SECRET, 'msg_abc', NOW, BODY)));
  });

  it('signs the exact bytes: non-ASCII bodies are signed as UTF-8', () => {
    const body = '{"name":"Zoë & Søn — Café"}';
    expect(signWebhook({ secret: SECRET, id: 'msg_u', timestamp: NOW, body })).toBe(reference(SECRET, 'msg_u', NOW, body));
  });

  it('refuses malformed secrets', () => {
    expect(() => webhookSecretKey('whsec_')).toThrow();
    expect(() => webhookSecretKey('whsec_not base64!')).toThrow();
    expect(() => webhookSecretKey(new Uint8Array())).toThrow();
    const fresh = newWebhookSecret();
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(webhookSecretKey(fresh)).toHaveLength(32);
  });
});

describe('unpadded secrets', () => {
  // 31 key bytes: base64 with one '=' of padding, which some dashboards and SDKs leave off.
  const PADDED = `whsec_${Buffer.alloc(31, 0x5a).toString('base64')}`;
  const UNPADDED = PADDED.replace(/=+$/, '');

  it('are accepted as the reference implementation accepts them, with the same key', () => {
    expect(UNPADDED).not.toMatch(/=$/);
    expect(webhookSecretKey(UNPADDED)).toEqual(webhookSecretKey(PADDED));
    expect(webhookSecretKey(UNPADDED)).toHaveLength(31);
    expect(signWebhook({ secret: UNPADDED, id: VECTOR.id, timestamp: VECTOR.timestamp, body: VECTOR.body })).toBe(
      reference(PADDED, VECTOR.id, VECTOR.timestamp, VECTOR.body),
    );
  });

  it('verify the test vector’s delivery signed with them, and nothing signed with another key', () => {
    const headers = webhookHeaders({ secret: UNPADDED, id: VECTOR.id, timestamp: VECTOR.timestamp, body: VECTOR.body });
    const now = new Date(VECTOR.timestamp * 1000);
    expect(verifyWebhook({ secret: UNPADDED, headers, body: VECTOR.body, now })).toEqual({ ok: true, id: VECTOR.id, timestamp: VECTOR.timestamp });
    expect(verifyWebhook({ secret: PADDED, headers, body: VECTOR.body, now }).ok).toBe(true);
    // The vector's own signature (its own secret) does not match the unpadded one's key.
    const vector = { 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': VECTOR.signature };
    expect(verifyWebhook({ secret: UNPADDED, headers: vector, body: VECTOR.body, now })).toMatchObject({ ok: false, reason: 'no_matching_signature' });
  });
});

describe('verifyWebhook', () => {
  const now = NOW * 1000;

  it('accepts the Standard Webhooks test vector at its own time', () => {
    const r = verifyWebhook({
      secret: VECTOR.secret,
      headers: new Headers({ 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': VECTOR.signature }),
      body: VECTOR.body,
      now: new Date(VECTOR.timestamp * 1000),
    });
    expect(r).toEqual({ ok: true, id: VECTOR.id, timestamp: VECTOR.timestamp });
  });

  it('round-trips sign and verify, with plain-record and Fetch headers', () => {
    const headers = webhookHeaders({ secret: SECRET, id: 'msg_abc', timestamp: NOW, body: BODY });
    expect(verifyWebhook({ secret: SECRET, headers, body: BODY, now })).toMatchObject({ ok: true, id: 'msg_abc', timestamp: NOW });
    expect(verifyWebhook({ secret: SECRET, headers: new Headers(headers), body: Buffer.from(BODY), now }).ok).toBe(true);
    // Node lower-cases header names, but a record with other casing still works.
    const mixed = { 'Webhook-Id': headers['webhook-id'], 'Webhook-Timestamp': headers['webhook-timestamp'], 'Webhook-Signature': headers['webhook-signature'] };
    expect(verifyWebhook({ secret: SECRET, headers: mixed, body: BODY, now }).ok).toBe(true);
  });

  it('refuses a tampered body, id or timestamp', () => {
    const sig = reference(SECRET, 'msg_abc', NOW, BODY);
    const tampered = BODY.replace('biz_1', 'biz_2');
    expect(verifyWebhook({ secret: SECRET, headers: headersFor(sig), body: tampered, now })).toMatchObject({ ok: false, reason: 'no_matching_signature' });
    expect(verifyWebhook({ secret: SECRET, headers: headersFor(sig, NOW, 'msg_other'), body: BODY, now }).ok).toBe(false);
    expect(verifyWebhook({ secret: SECRET, headers: headersFor(sig, NOW + 1), body: BODY, now }).ok).toBe(false);
    expect(verifyWebhook({ secret: SECRET, headers: headersFor(sig), body: `${BODY} `, now }).ok).toBe(false);
  });

  it('refuses a delivery signed with another secret', () => {
    const headers = headersFor(reference(OTHER, 'msg_abc', NOW, BODY));
    expect(verifyWebhook({ secret: SECRET, headers, body: BODY, now })).toMatchObject({ ok: false, reason: 'no_matching_signature' });
    // …but accepts it while both secrets are configured (rotation).
    expect(verifyWebhook({ secret: [SECRET, OTHER], headers, body: BODY, now }).ok).toBe(true);
  });

  it('refuses timestamps outside the tolerance, either way (default 5 minutes)', () => {
    const at = (ts: number, toleranceSeconds?: number) =>
      verifyWebhook({ secret: SECRET, headers: headersFor(reference(SECRET, 'msg_abc', ts, BODY), ts), body: BODY, now, toleranceSeconds });
    expect(at(NOW - 300).ok).toBe(true);
    expect(at(NOW + 300).ok).toBe(true);
    expect(at(NOW - 301)).toMatchObject({ ok: false, reason: 'timestamp_too_old' });
    expect(at(NOW + 301)).toMatchObject({ ok: false, reason: 'timestamp_too_new' });
    expect(at(NOW - 30, 10)).toMatchObject({ ok: false, reason: 'timestamp_too_old' });
    expect(at(NOW - 30, 60).ok).toBe(true);
  });

  it('refuses missing headers and malformed timestamps', () => {
    const sig = reference(SECRET, 'msg_abc', NOW, BODY);
    expect(verifyWebhook({ secret: SECRET, headers: {}, body: BODY, now })).toMatchObject({ ok: false, reason: 'missing_headers' });
    const { 'webhook-signature': _s, ...noSig } = headersFor(sig);
    expect(verifyWebhook({ secret: SECRET, headers: noSig, body: BODY, now })).toMatchObject({ ok: false, reason: 'missing_headers' });
    for (const ts of ['1750000000.5', '-1750000000', 'soon', `${NOW}x`]) {
      expect(verifyWebhook({ secret: SECRET, headers: headersFor(sig, ts), body: BODY, now })).toMatchObject({ ok: false, reason: 'invalid_timestamp' });
    }
  });

  it('accepts a header with several signatures when any one matches', () => {
    const good = reference(SECRET, 'msg_abc', NOW, BODY);
    const bad = reference(OTHER, 'msg_abc', NOW, BODY);
    const sig = `${bad} v1a,${good.slice(3)} ${good}`;
    expect(verifyWebhook({ secret: SECRET, headers: headersFor(sig), body: BODY, now }).ok).toBe(true);
    // Other versions (v1a) and malformed entries never match on their own.
    const onlyOthers = `v1a,${good.slice(3)} v2,${good.slice(3)} v1, v1,!!!`;
    expect(verifyWebhook({ secret: SECRET, headers: headersFor(onlyOthers), body: BODY, now }).ok).toBe(false);
    // A truncated signature is refused without throwing (lengths differ before timingSafeEqual).
    expect(verifyWebhook({ secret: SECRET, headers: headersFor(good.slice(0, 20)), body: BODY, now }).ok).toBe(false);
  });
});
