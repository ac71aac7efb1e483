import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealSessionId } from '@/server/auth';
import { resetEnvForTests } from '@/server/env';
import { log, setLogSink } from '@/server/log';

/*
 * Every kind of secret the app holds, as a sentinel, logged the ways code tends to log them (a field named
 * after it, a field with an innocent name, inside a message, an error, a URL): none of them may reach a line.
 */

const API_KEY = 'pk_live_SENTINELapikey0123456789';
const SESSION_SECRET = `sentinel-session-secret-${'s'.repeat(16)}`;
const WEBHOOK_SECRET = 'whsec_U0VOVElORUx3ZWJob29rc2VjcmV0';
const METRICS_TOKEN = 'SENTINEL-metrics-token-0123456789';
const PASSWORD = 'SENTINEL-pass-word-42';
const DB_PASSWORD = 'SENTINELdbpassword';
const INVITATION_TOKEN = randomBytes(32).toString('base64url');

const lines: string[] = [];
let restore = () => {};

beforeAll(() => {
  resetEnvForTests({ PORTAL_API_KEY: API_KEY, SESSION_SECRET, WEBHOOK_SECRET, METRICS_TOKEN, LOG_LEVEL: 'debug' });
  restore = setLogSink((l) => lines.push(l));
});
afterAll(() => {
  restore();
  resetEnvForTests();
});

describe('log redaction (pino lines)', () => {
  it('keeps every kind of secret out of every line, whatever it is called', async () => {
    const cookie = await sealSessionId(randomBytes(32).toString('base64url'), { password: SESSION_SECRET, appOrigin: 'http://127.0.0.1:3000', maxAgeSeconds: 60 });
    const sentinels = {
      'API key': API_KEY,
      'session secret': SESSION_SECRET,
      'sealed session cookie': cookie,
      'webhook secret': WEBHOOK_SECRET,
      'metrics token': METRICS_TOKEN,
      password: PASSWORD,
      'database password': DB_PASSWORD,
      'invitation token': INVITATION_TOKEN,
    };
    const before = lines.length;
    // Under names that say what they are.
    log.info('sign in', { password: PASSWORD, api_key: API_KEY, cookie, authorization: `Bearer ${METRICS_TOKEN}`, webhookSecret: WEBHOOK_SECRET });
    // Under innocent names, in messages, errors and URLs.
    log.warn(`calling with ${API_KEY} and ${WEBHOOK_SECRET}`, { note: `session=${cookie}`, value: SESSION_SECRET, scrape: METRICS_TOKEN });
    log.error('invite sent', { link: `https://intake.example.com/invite/${INVITATION_TOKEN}`, target: `postgres://bff:${DB_PASSWORD}@db:5432/bff` });
    log.error('failed', { error: new Error(`upstream said ${API_KEY} is wrong; url https://x.test/invite/${INVITATION_TOKEN}?x=1`) });
    log.debug('nested', { deep: { headers: { cookie }, list: [{ secret: WEBHOOK_SECRET }, { ok: `${METRICS_TOKEN}` }] } });

    const written = lines.slice(before);
    expect(written).toHaveLength(5);
    for (const line of written) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      expect(entry).toHaveProperty('ts');
      expect(entry).toHaveProperty('level');
      for (const [kind, value] of Object.entries(sentinels)) expect(line, `${kind} in ${line}`).not.toContain(value);
    }
    // What is not a secret survives: where the invitation points, the database host.
    expect(written[2]).toContain('https://intake.example.com/invite/[redacted]');
    expect(written[2]).toContain('@db:5432/bff');
  });
});
