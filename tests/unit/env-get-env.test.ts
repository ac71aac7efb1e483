import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getEnv, resetEnvForTests } from '@/server/env';
import { setLogSink } from '@/server/log';

const VARS = ['PORTAL_BASE_URL', 'PORTAL_API_KEY', 'SESSION_SECRET', 'LOG_LEVEL', 'PORTAL_TIMEOUT_MS'] as const;

describe('getEnv', () => {
  const saved: Partial<Record<(typeof VARS)[number], string | undefined>> = {};
  let lines: string[] = [];
  let restoreSink: () => void = () => {};

  beforeEach(() => {
    for (const v of VARS) {
      saved[v] = process.env[v];
      delete process.env[v];
    }
    lines = [];
    restoreSink = setLogSink((l) => lines.push(l));
    resetEnvForTests();
  });

  afterEach(() => {
    for (const v of VARS) {
      if (saved[v] === undefined) delete process.env[v];
      else process.env[v] = saved[v];
    }
    restoreSink();
    resetEnvForTests();
  });

  it('reads process.env once and caches the result', () => {
    process.env.PORTAL_TIMEOUT_MS = '1234';
    const first = getEnv();
    process.env.PORTAL_TIMEOUT_MS = '5678';
    expect(getEnv()).toBe(first);
    expect(getEnv().portalTimeoutMs).toBe(1234);
  });

  it('throws an error naming the bad variable', () => {
    process.env.LOG_LEVEL = 'chatty';
    expect(() => getEnv()).toThrow(/LOG_LEVEL: must be one of debug, info, warn, error/);
  });

  it('logs each start-up warning once, as a JSON line, with the secrets masked', () => {
    process.env.PORTAL_BASE_URL = 'https://portal.example.com/v1/';
    process.env.PORTAL_API_KEY = 'distinctive-key-123456';
    getEnv();
    getEnv();
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 'warn', component: 'env' });
    expect(entry.msg).toMatch(/SESSION_SECRET is not set/);
    expect(lines[0]).not.toContain('distinctive-key-123456');
  });

  it('lets tests substitute a configuration', () => {
    const env = resetEnvForTests({ PORTAL_BASE_URL: 'http://127.0.0.1:9/v1/', PORTAL_API_KEY: 'test-key-abcdefgh' });
    expect(getEnv()).toBe(env);
    expect(getEnv().portalApiKey).toBe('test-key-abcdefgh');
    resetEnvForTests();
    expect(getEnv().portalBaseUrl).toBe('http://127.0.0.1:4010/v1/');
  });
});
