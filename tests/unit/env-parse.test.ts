import { describe, expect, it } from 'vitest';
import { ENV_DOCS, EnvError, parseEnv } from '@/server/env';
import { DEMO_KEYS } from '@/server/sandbox/keys';

const DEMO_FULL = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;
const CWD = '/srv/intake';
const REAL_KEY = 'pk_live_realkey_0123456789';
const STRONG_SECRET = 's'.repeat(40);

/** The EnvError thrown for `source`, or a failure if none is thrown. */
function problemsOf(source: Record<string, string | undefined>): EnvError {
  try {
    parseEnv(source, { cwd: CWD });
  } catch (e) {
    if (e instanceof EnvError) return e;
    throw e;
  }
  throw new Error('expected an EnvError');
}

describe('parseEnv defaults', () => {
  it('runs the whole product against the embedded sandbox with nothing set', () => {
    const env = parseEnv({}, { cwd: CWD });
    expect(env).toMatchObject({
      portalBaseUrl: 'http://127.0.0.1:4010/v1/',
      portalApiKey: 'pk_test_demo_full_4f9c2a7e1b8d',
      portalTimeoutMs: 10_000,
      portalIsLocal: true,
      sessionSecretIsDefault: true,
      databaseUrl: null,
      dataDir: '/srv/intake/.data',
      sessionIdleMinutes: 30,
      sessionAbsoluteHours: 12,
      appOrigin: null,
      logLevel: 'info',
      webhookSecret: null,
      reconcileMinutes: 15,
      waitingDays: 7,
      trustedProxyHops: 0,
      warnings: [],
    });
    expect(env.portalApiKey).toBe(DEMO_FULL);
    expect(env.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(Object.isFrozen(env)).toBe(true);
  });

  it('treats empty variables as unset', () => {
    const env = parseEnv({ PORTAL_BASE_URL: '', PORTAL_API_KEY: ' ', LOG_LEVEL: '', DATABASE_URL: '' }, { cwd: CWD });
    expect(env.portalBaseUrl).toBe('http://127.0.0.1:4010/v1/');
    expect(env.portalApiKey).toBe(DEMO_FULL);
    expect(env.databaseUrl).toBeNull();
  });

  it('takes every variable when set', () => {
    const env = parseEnv(
      {
        PORTAL_BASE_URL: 'https://portal.example.com/api/v1/',
        PORTAL_API_KEY: REAL_KEY,
        PORTAL_TIMEOUT_MS: '2500',
        SESSION_SECRET: STRONG_SECRET,
        DATABASE_URL: 'postgresql://intake:pw@db.internal:5432/intake',
        DATA_DIR: 'var/state',
        SESSION_IDLE_MINUTES: '15',
        SESSION_ABSOLUTE_HOURS: '8',
        APP_ORIGIN: 'https://intake.example.com/',
        LOG_LEVEL: 'debug',
        WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        WORKSPACE_RECONCILE_MINUTES: '0',
        WORKSPACE_WAITING_DAYS: '3',
      },
      { cwd: CWD },
    );
    expect(env).toMatchObject({
      portalBaseUrl: 'https://portal.example.com/api/v1/',
      portalApiKey: REAL_KEY,
      portalTimeoutMs: 2500,
      portalIsLocal: false,
      sessionSecret: STRONG_SECRET,
      sessionSecretIsDefault: false,
      databaseUrl: 'postgresql://intake:pw@db.internal:5432/intake',
      dataDir: '/srv/intake/var/state',
      sessionIdleMinutes: 15,
      sessionAbsoluteHours: 8,
      appOrigin: 'https://intake.example.com',
      logLevel: 'debug',
      webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      reconcileMinutes: 0,
      waitingDays: 3,
      warnings: [],
    });
  });

  it('keeps an absolute DATA_DIR and accepts postgres:// too', () => {
    const env = parseEnv({ DATA_DIR: '/data/intake', DATABASE_URL: 'postgres://localhost/intake' }, { cwd: CWD });
    expect(env.dataDir).toBe('/data/intake');
    expect(env.databaseUrl).toBe('postgres://localhost/intake');
  });

  it('counts a local Portal other than the default as local', () => {
    const env = parseEnv({ PORTAL_BASE_URL: 'http://localhost:5000/v1/', PORTAL_API_KEY: REAL_KEY }, { cwd: CWD });
    expect(env.portalIsLocal).toBe(true);
    expect(env.warnings).toEqual([]);
  });
});

describe('the PORTAL_API_KEY rule', () => {
  it('refuses a set PORTAL_BASE_URL without a key, naming PORTAL_API_KEY', () => {
    const e = problemsOf({ PORTAL_BASE_URL: 'https://portal.example.com/v1/' });
    expect(e.problems).toEqual([{ variable: 'PORTAL_API_KEY', message: 'is required when PORTAL_BASE_URL is set' }]);
    expect(e.message).toContain('PORTAL_API_KEY: is required when PORTAL_BASE_URL is set');
  });

  it('never pairs the demo key with a base URL that was set, even the sandbox default one', () => {
    const e = problemsOf({ PORTAL_BASE_URL: 'http://127.0.0.1:4010/v1/' });
    expect(e.problems.map((p) => p.variable)).toEqual(['PORTAL_API_KEY']);
  });

  it('accepts a key without a base URL (a non-demo key for the embedded sandbox)', () => {
    const env = parseEnv({ PORTAL_API_KEY: 'pk_test_demo_readonly_2b8f4c1e9d7a' }, { cwd: CWD });
    expect(env.portalBaseUrl).toBe('http://127.0.0.1:4010/v1/');
    expect(env.portalApiKey).toBe('pk_test_demo_readonly_2b8f4c1e9d7a');
  });
});

describe('each bad variable is named (and its value never echoed)', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['PORTAL_BASE_URL', { PORTAL_BASE_URL: 'not a url', PORTAL_API_KEY: REAL_KEY }],
    ['PORTAL_BASE_URL', { PORTAL_BASE_URL: 'https://portal.example.com/v2/', PORTAL_API_KEY: REAL_KEY }],
    ['PORTAL_BASE_URL', { PORTAL_BASE_URL: 'https://portal.example.com/v1', PORTAL_API_KEY: REAL_KEY }],
    ['PORTAL_BASE_URL', { PORTAL_BASE_URL: 'ftp://portal.example.com/v1/', PORTAL_API_KEY: REAL_KEY }],
    ['PORTAL_BASE_URL', { PORTAL_BASE_URL: 'https://user:hunter2pass@portal.example.com/v1/', PORTAL_API_KEY: REAL_KEY }],
    ['PORTAL_BASE_URL', { PORTAL_BASE_URL: 'https://portal.example.com/v1/?key=abc', PORTAL_API_KEY: REAL_KEY }],
    ['PORTAL_API_KEY', { PORTAL_API_KEY: 'short' }],
    ['PORTAL_API_KEY', { PORTAL_API_KEY: 'has a space in it' }],
    ['PORTAL_TIMEOUT_MS', { PORTAL_TIMEOUT_MS: 'ten' }],
    ['PORTAL_TIMEOUT_MS', { PORTAL_TIMEOUT_MS: '1e4' }],
    ['PORTAL_TIMEOUT_MS', { PORTAL_TIMEOUT_MS: '5' }],
    ['PORTAL_TIMEOUT_MS', { PORTAL_TIMEOUT_MS: '9999999' }],
    ['SESSION_SECRET', { SESSION_SECRET: 'too-short-secret' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://root:hunter2pass@db/intake' }],
    ['DATABASE_URL', { DATABASE_URL: 'nonsense' }],
    ['SESSION_IDLE_MINUTES', { SESSION_IDLE_MINUTES: '0' }],
    ['SESSION_IDLE_MINUTES', { SESSION_IDLE_MINUTES: '-5' }],
    ['SESSION_IDLE_MINUTES', { SESSION_IDLE_MINUTES: '1000' }], // > 12 h default absolute lifetime
    ['SESSION_IDLE_MINUTES', { SESSION_IDLE_MINUTES: '120', SESSION_ABSOLUTE_HOURS: '1' }],
    ['SESSION_ABSOLUTE_HOURS', { SESSION_ABSOLUTE_HOURS: '1.5' }],
    ['SESSION_ABSOLUTE_HOURS', { SESSION_ABSOLUTE_HOURS: '10000' }],
    ['APP_ORIGIN', { APP_ORIGIN: 'https://intake.example.com/app' }],
    ['APP_ORIGIN', { APP_ORIGIN: 'app.example.org' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['WEBHOOK_SECRET', { WEBHOOK_SECRET: 'hunter2-not-a-whsec-secret' }],
    ['WEBHOOK_SECRET', { WEBHOOK_SECRET: 'whsec_short' }],
    ['WORKSPACE_RECONCILE_MINUTES', { WORKSPACE_RECONCILE_MINUTES: '1441' }],
    ['WORKSPACE_WAITING_DAYS', { WORKSPACE_WAITING_DAYS: '0' }],
  ];

  it.each(cases)('%s: %j', (variable, source) => {
    const e = problemsOf(source);
    expect(e.problems.map((p) => p.variable)).toEqual([variable]);
    expect(e.message).toMatch(new RegExp(`^Invalid configuration:\\n  ${variable}: .+`));
    for (const value of Object.values(source)) {
      if (value.length >= 5) expect(e.message).not.toContain(value);
    }
    expect(e.message).not.toContain('hunter2');
  });

  it('names every bad variable at once', () => {
    const e = problemsOf({ PORTAL_BASE_URL: 'https://x.example/v2/', LOG_LEVEL: 'loud', SESSION_SECRET: 'short', PORTAL_TIMEOUT_MS: 'x' });
    expect(e.problems.map((p) => p.variable).sort()).toEqual(['LOG_LEVEL', 'PORTAL_API_KEY', 'PORTAL_BASE_URL', 'PORTAL_TIMEOUT_MS', 'SESSION_SECRET']);
  });
});

describe('start-up warnings', () => {
  const remote = { PORTAL_BASE_URL: 'https://portal.example.com/v1/', PORTAL_API_KEY: REAL_KEY };

  it('warns when the development session secret meets a Portal that is not local', () => {
    const env = parseEnv(remote, { cwd: CWD });
    expect(env.sessionSecretIsDefault).toBe(true);
    expect(env.warnings).toHaveLength(1);
    expect(env.warnings[0]).toMatch(/SESSION_SECRET is not set/);
  });

  it('stays quiet with a real secret, or with the development secret against the local sandbox', () => {
    expect(parseEnv({ ...remote, SESSION_SECRET: STRONG_SECRET }, { cwd: CWD }).warnings).toEqual([]);
    expect(parseEnv({}, { cwd: CWD }).warnings).toEqual([]);
  });

  it('warns about an API key sent over plain http to another machine', () => {
    const env = parseEnv({ PORTAL_BASE_URL: 'http://portal.internal/v1/', PORTAL_API_KEY: REAL_KEY, SESSION_SECRET: STRONG_SECRET }, { cwd: CWD });
    expect(env.warnings).toEqual([expect.stringMatching(/plain http/)]);
  });
});

describe('TRUSTED_PROXY_HOPS', () => {
  it('takes 0 to 10 proxies and refuses anything else, naming the variable', () => {
    expect(parseEnv({ TRUSTED_PROXY_HOPS: '2' }, { cwd: CWD }).trustedProxyHops).toBe(2);
    expect(parseEnv({ TRUSTED_PROXY_HOPS: ' ' }, { cwd: CWD }).trustedProxyHops).toBe(0);
    for (const bad of ['-1', '11', '1.5', 'all']) {
      expect(problemsOf({ TRUSTED_PROXY_HOPS: bad }).problems.map((p) => p.variable)).toEqual(['TRUSTED_PROXY_HOPS']);
    }
  });
});

describe('mail settings', () => {
  it('reads SMTP_URL, MAIL_FROM and MAIL_RETRY_SECONDS, with defaults', () => {
    expect(parseEnv({}, { cwd: CWD })).toMatchObject({ smtpUrl: null, mailFrom: 'Intake <intake@localhost>', mailRetrySeconds: 30 });
    const env = parseEnv({ SMTP_URL: 'smtps://user:pw@smtp.example.com:465', MAIL_FROM: 'Broker <broker@example.com>', MAIL_RETRY_SECONDS: '1' }, { cwd: CWD });
    expect(env).toMatchObject({ smtpUrl: 'smtps://user:pw@smtp.example.com:465', mailFrom: 'Broker <broker@example.com>', mailRetrySeconds: 1 });
  });

  it.each([
    ['SMTP_URL', 'http://smtp.example.com'],
    ['SMTP_URL', 'smtp://'],
    ['MAIL_FROM', 'Broker <broker@example.com>\r\nBcc: all@example.com'],
    ['MAIL_FROM', 'not an address'],
    ['MAIL_RETRY_SECONDS', '0'],
  ])('refuses %s=%j, naming it', (variable, value) => {
    expect(problemsOf({ [variable]: value }).problems.map((p) => p.variable)).toEqual([variable]);
  });
});

describe('reminder settings', () => {
  it('reads the schedule, time scale, quiet hours, zone, send-now spacing and daily cap, with defaults', () => {
    expect(parseEnv({}, { cwd: CWD })).toMatchObject({
      reminderScheduleDays: [3, 7, 14],
      reminderTimeScale: 1,
      reminderQuietHours: { start: 21, end: 8 },
      reminderTimeZone: 'UTC',
      reminderNowMinutes: 60,
      mailDailyCap: 5,
    });
    const env = parseEnv(
      { REMINDER_SCHEDULE_DAYS: '1, 2,10', REMINDER_TIME_SCALE: '86400', REMINDER_QUIET_HOURS: 'off', REMINDER_TIME_ZONE: 'Europe/London', REMINDER_NOW_MINUTES: '5', MAIL_DAILY_CAP: '2' },
      { cwd: CWD },
    );
    expect(env).toMatchObject({ reminderScheduleDays: [1, 2, 10], reminderTimeScale: 86400, reminderQuietHours: null, reminderTimeZone: 'Europe/London', reminderNowMinutes: 5, mailDailyCap: 2 });
  });

  it.each([
    ['REMINDER_SCHEDULE_DAYS', '7,3'],
    ['REMINDER_SCHEDULE_DAYS', '0'],
    ['REMINDER_SCHEDULE_DAYS', 'soon'],
    ['REMINDER_TIME_SCALE', '0'],
    ['REMINDER_QUIET_HOURS', '8-8'],
    ['REMINDER_QUIET_HOURS', '21-25'],
    ['REMINDER_TIME_ZONE', 'Mars/Olympus'],
    ['REMINDER_NOW_MINUTES', '0'],
    ['MAIL_DAILY_CAP', '0'],
  ])('refuses %s=%j, naming it', (variable, value) => {
    expect(problemsOf({ [variable]: value }).problems.map((p) => p.variable)).toEqual([variable]);
  });
});

describe('ENV_DOCS', () => {
  it('documents every variable parseEnv reads, once', () => {
    const names = ENV_DOCS.map((d) => d.name);
    expect(names).toEqual([
      'PORTAL_BASE_URL',
      'PORTAL_API_KEY',
      'PORTAL_TIMEOUT_MS',
      'SESSION_SECRET',
      'DATABASE_URL',
      'DATA_DIR',
      'SESSION_IDLE_MINUTES',
      'SESSION_ABSOLUTE_HOURS',
      'APP_ORIGIN',
      'LOG_LEVEL',
      'WEBHOOK_SECRET',
      'WORKSPACE_RECONCILE_MINUTES',
      'WORKSPACE_WAITING_DAYS',
      'HISTORY_RETENTION_DAYS',
      'TRUSTED_PROXY_HOPS',
      'SMTP_URL',
      'MAIL_FROM',
      'MAIL_RETRY_SECONDS',
      'MAIL_DAILY_CAP',
      'REMINDER_SCHEDULE_DAYS',
      'REMINDER_TIME_SCALE',
      'REMINDER_QUIET_HOURS',
      'REMINDER_TIME_ZONE',
      'REMINDER_NOW_MINUTES',
      'DRAIN_GRACE_MS',
      'METRICS_TOKEN',
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'TRACING',
    ]);
    for (const d of ENV_DOCS) {
      expect(d.default.length).toBeGreaterThan(0);
      expect(d.meaning.length).toBeGreaterThan(0);
      expect(d.default).not.toContain('pk_test_'); // the README shows where the key comes from, not the key
    }
  });
});
