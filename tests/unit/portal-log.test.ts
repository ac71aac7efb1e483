import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetEnvForTests } from '@/server/env';
import { log, maskString, redact, setLogSink } from '@/server/log';

const KEY = 'distinctiveUpstreamKey_7x7x7x';
const SESSION = 'session-secret-that-is-long-enough-1234567890';
const WEBHOOK = 'whsec_c2VjcmV0LXdlYmhvb2stc2lnbmluZw==';

let lines: string[] = [];
let restore: () => void = () => {};
const entries = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(() => {
  resetEnvForTests({ PORTAL_API_KEY: KEY, SESSION_SECRET: SESSION, WEBHOOK_SECRET: WEBHOOK, LOG_LEVEL: 'debug' });
  restore = setLogSink((l) => lines.push(l));
});
afterAll(() => {
  restore();
  resetEnvForTests();
});
beforeEach(() => {
  lines = [];
});

describe('log', () => {
  it('writes one JSON line per call with ts, level, msg and the fields', () => {
    log.info('hello', { request_id: 'req_1', status: 200, nested: { ok: true } });
    expect(lines).toHaveLength(1);
    expect(entries()[0]).toMatchObject({ level: 'info', msg: 'hello', request_id: 'req_1', status: 200, nested: { ok: true } });
    expect(Date.parse(entries()[0]!.ts as string)).not.toBeNaN();
  });

  it('respects LOG_LEVEL', () => {
    resetEnvForTests({ PORTAL_API_KEY: KEY, SESSION_SECRET: SESSION, LOG_LEVEL: 'warn' });
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(entries().map((e) => e.level)).toEqual(['warn', 'error']);
    resetEnvForTests({ PORTAL_API_KEY: KEY, SESSION_SECRET: SESSION, WEBHOOK_SECRET: WEBHOOK, LOG_LEVEL: 'debug' });
  });

  it('does not let fields overwrite ts, level or msg', () => {
    log.info('real', { level: 'error', msg: 'fake', ts: 'then' });
    expect(entries()[0]).toMatchObject({ level: 'info', msg: 'real', field_level: 'error', field_msg: 'fake', field_ts: 'then' });
  });

  it('redacts fields named like credentials, at any depth, whatever their value', () => {
    log.info('call', {
      authorization: 'anything',
      Cookie: 'sid=1',
      'set-cookie': ['a=b'],
      api_key: 'k',
      apiKey: 'k',
      'x-api-key': 'k',
      token: 'abc',
      access_token: 'abc',
      password: 'pw',
      secret: 's',
      client_secret: 's',
      nested: { deeper: [{ sessionToken: 't', password: 'pw', fine: 'visible' }] },
      idempotency_key: 'idem-123',
      block_key: 'company',
    });
    const e = entries()[0]!;
    for (const k of ['authorization', 'Cookie', 'set-cookie', 'api_key', 'apiKey', 'x-api-key', 'token', 'access_token', 'password', 'secret', 'client_secret']) {
      expect(e[k], k).toBe('[redacted]');
    }
    expect(e.nested).toEqual({ deeper: [{ sessionToken: '[redacted]', password: '[redacted]', fine: 'visible' }] });
    expect(e.idempotency_key).toBe('idem-123');
    expect(e.block_key).toBe('company');
  });

  it('masks the configured key and secrets inside any string, including the message', () => {
    log.warn(`failed with ${KEY}`, {
      note: `x${KEY}y`,
      encoded: encodeURIComponent(SESSION),
      list: [`session=${SESSION}`],
      deep: { deeper: { text: `webhook ${WEBHOOK}` } },
    });
    const line = lines[0]!;
    expect(line).not.toContain(KEY);
    expect(line).not.toContain(SESSION);
    expect(line).not.toContain(WEBHOOK);
    expect(entries()[0]).toMatchObject({ msg: 'failed with [redacted]', note: 'x[redacted]y', list: ['session=[redacted]'] });
  });

  it('masks Portal keys and Bearer tokens by their shape, even unconfigured ones', () => {
    log.info('seen', {
      a: 'key pk_live_abcDEF123_xyz in text',
      b: 'pk_test_demo_full_4f9c2a7e1b8d',
      c: 'Authorization: Bearer abc.def-ghi',
      d: 'bearer    lower-case-token',
      e: 'https://storage.example/transfers/upl_1?token=signedvalue&x=1',
    });
    const e = entries()[0]!;
    expect(e.a).toBe('key [redacted] in text');
    expect(e.b).toBe('[redacted]');
    expect(e.c).toBe('Authorization: Bearer [redacted]');
    expect(e.d).toBe('Bearer [redacted]');
    expect(e.e).toBe('https://storage.example/transfers/upl_1?token=[redacted]&x=1');
  });

  it('never logs header objects wholesale', () => {
    const headers = new Headers({ Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' });
    log.info('h', { headers: { authorization: 'x', accept: 'y' }, rawHeaders: ['Authorization', 'x'], h: headers });
    const e = entries()[0]!;
    expect(e.headers).toBe('[headers omitted]');
    expect(e.rawHeaders).toBe('[headers omitted]');
    expect(e.h).toBe('[headers omitted]');
    expect(lines[0]).not.toContain(KEY);
  });

  it('serialises errors safely, and survives cycles, binaries and bigints', () => {
    const err = new Error(`boom ${KEY}`);
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    log.error('failed', { err, cyclic, bytes: Buffer.from('abc'), big: 10n, fn: () => 1 });
    const e = entries()[0]!;
    expect(e.err).toMatchObject({ name: 'Error', message: 'boom [redacted]' });
    expect(e.cyclic).toEqual({ name: 'loop', self: '[circular]' });
    expect(e.bytes).toBe('[binary 3 bytes]');
    expect(e.big).toBe('10');
    expect(e).not.toHaveProperty('fn');
  });

  it('keeps going when the sink throws', () => {
    const undo = setLogSink(() => {
      throw new Error('disk full');
    });
    expect(() => log.info('x')).not.toThrow();
    undo();
  });
});

describe('redact and maskString (pure)', () => {
  it('ignores secrets too short to mask meaningfully', () => {
    expect(maskString('a cat sat', ['a'])).toBe('a cat sat');
  });

  it('returns a copy and leaves the input alone', () => {
    const input = { password: 'pw', nested: { v: 'pk_test_abc' } };
    const out = redact(input, []) as typeof input;
    expect(out).toEqual({ password: '[redacted]', nested: { v: '[redacted]' } });
    expect(input.password).toBe('pw');
  });
});
