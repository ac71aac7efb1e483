import { describe, expect, it } from 'vitest';
import { webhookSecretKey } from '@/server/sandbox/webhooks/sign';
import { optionsFromEnv } from '@/server/sandbox/config';
import { DEFAULT_OPTIONS } from '@/server/sandbox/options';
import { deliverySchedule, retryDelayMs } from '@/server/sandbox/webhooks';

const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;

describe('sandbox webhook and controls configuration', () => {
  it('defaults: no webhook URL, a valid development secret, controls off', () => {
    const o = optionsFromEnv(env({}));
    expect(o).toMatchObject({ webhookUrl: null, webhookSecret: DEFAULT_OPTIONS.webhookSecret, controls: false });
    expect(webhookSecretKey(o.webhookSecret).length).toBeGreaterThanOrEqual(24);
  });

  it('reads SANDBOX_WEBHOOK_URL, SANDBOX_WEBHOOK_SECRET and SANDBOX_CONTROLS', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const o = optionsFromEnv(env({ SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:3000/api/webhooks/portal', SANDBOX_WEBHOOK_SECRET: secret, SANDBOX_CONTROLS: '1' }));
    expect(o).toMatchObject({ webhookUrl: 'http://127.0.0.1:3000/api/webhooks/portal', webhookSecret: secret, controls: true });
  });

  it('refuses a malformed URL or secret, naming the variable', () => {
    expect(() => optionsFromEnv(env({ SANDBOX_WEBHOOK_URL: 'ftp://example.test/hook' }))).toThrow(/SANDBOX_WEBHOOK_URL/);
    expect(() => optionsFromEnv(env({ SANDBOX_WEBHOOK_URL: 'not a url' }))).toThrow(/SANDBOX_WEBHOOK_URL/);
    expect(() => optionsFromEnv(env({ SANDBOX_WEBHOOK_SECRET: 'plain-text-secret' }))).toThrow(/SANDBOX_WEBHOOK_SECRET: use "whsec_"/);
    expect(() => optionsFromEnv(env({ SANDBOX_WEBHOOK_SECRET: `whsec_${Buffer.from('short').toString('base64')}` }))).toThrow(/24 to 64 bytes/);
    expect(() => optionsFromEnv(env({ SANDBOX_CONTROLS: 'yes' }))).toThrow(/SANDBOX_CONTROLS/);
  });
});

describe('delivery schedule', () => {
  it('is deterministic exponential back-off: 0, 1 s, 2 s, 4 s … capped at an hour', () => {
    expect(deliverySchedule(8)).toEqual([0, 1000, 2000, 4000, 8000, 16000, 32000, 64000]);
    expect(retryDelayMs(1)).toBe(0);
    expect(retryDelayMs(13)).toBe(2_048_000);
    expect(retryDelayMs(14)).toBe(3_600_000);
    expect(retryDelayMs(30)).toBe(3_600_000);
  });
});
