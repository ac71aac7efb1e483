import 'server-only';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { LOG_LEVELS } from '@/server/log/levels';
import {
  DEFAULT_ABSOLUTE_HOURS,
  DEFAULT_DATA_DIR_NAME,
  DEFAULT_DRAIN_GRACE_MS,
  DEFAULT_IDLE_MINUTES,
  DEFAULT_RECONCILE_MINUTES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_WAITING_DAYS,
  DEFAULT_HISTORY_RETENTION_DAYS,
  SANDBOX_BASE_URL,
  DEFAULT_MAIL_FROM,
  DEFAULT_MAIL_RETRY_SECONDS,
  DEFAULT_REMINDER_SCHEDULE_DAYS,
  DEFAULT_REMINDER_QUIET_HOURS,
  DEFAULT_REMINDER_TIME_ZONE,
  DEFAULT_REMINDER_NOW_MINUTES,
  DEFAULT_MAIL_DAILY_CAP,
} from './defaults';
import { DEV_SESSION_SECRET, SANDBOX_API_KEY } from './secret-defaults';
import type { Env, EnvSource } from './types';

/** Thrown by parseEnv(); the message names every bad variable (never its value: several are secrets). */
export class EnvError extends Error {
  override readonly name = 'EnvError';
  constructor(readonly problems: ReadonlyArray<{ variable: string; message: string }>) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`);
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const isLoopback = (url: URL) => LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);

/** An unset variable and an empty one mean the same (docker-compose and CI often export empty strings). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

const wholeNumber = (min: number, max: number, unit: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be a whole number of ${unit} between ${min} and ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min} ${unit}`).max(max, `must be at most ${max} ${unit}`));

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

const PortalBaseUrl = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const url = parseUrl(value);
    const problem = !url
      ? 'must be an absolute URL'
      : url.protocol !== 'http:' && url.protocol !== 'https:'
        ? 'must use http or https'
        : url.username || url.password
          ? 'must not contain a user name or password (the API key goes in PORTAL_API_KEY)'
          : url.search || url.hash
            ? 'must not have a query string or fragment'
            : !url.pathname.endsWith('/v1/')
              ? 'must have a path ending in /v1/ (e.g. https://portal.example.com/api/v1/)'
              : null;
    if (problem || !url) {
      ctx.addIssue({ code: 'custom', message: problem ?? 'is invalid' });
      return z.NEVER;
    }
    return url;
  });

const ApiKey = z
  .string()
  .trim()
  .min(8, 'must be at least 8 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

const SessionSecret = z.string().min(32, 'must be at least 32 characters');

const DatabaseUrl = z.string().trim().refine((value) => {
  const url = parseUrl(value);
  return !!url && (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && !!url.hostname;
}, 'must be a postgres:// or postgresql:// URL with a host');

const AppOrigin = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const url = parseUrl(value);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash || url.pathname !== '/') {
      ctx.addIssue({ code: 'custom', message: 'must be an origin such as https://intake.example.com (no path, query or user name)' });
      return z.NEVER;
    }
    return url.origin;
  });

const WebhookSecret = z
  .string()
  .trim()
  .regex(/^whsec_[A-Za-z0-9+/=_-]{16,}$/, 'must be a Standard Webhooks secret: whsec_ followed by at least 16 base64 characters');

// nodemailer's own URL form: smtp:// (STARTTLS when offered) or smtps:// (TLS from the start), credentials in the user part.
const SmtpUrl = z.string().trim().refine((value) => {
  const url = parseUrl(value);
  return !!url && (url.protocol === 'smtp:' || url.protocol === 'smtps:') && !!url.hostname;
}, 'must be an smtp:// or smtps:// URL with a host (e.g. smtps://user:password@smtp.example.com:465)');

// A From address: a plain address, or "Name <address>"; never a line break (a header of its own).
const MailFrom = z
  .string()
  .trim()
  .refine((v) => !/[\r\n\0]/.test(v) && /^(?:[^<>@]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(v), 'must be an address or "Name <address>"');
// Days after the invitation, ascending: "3,7,14". At most 10 steps, each 1–365 days.
const ReminderDays = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const parts = value.split(',').map((p) => p.trim());
    const days = parts.map(Number);
    const ok = parts.length <= 10 && parts.every((p) => /^\d+$/.test(p)) && days.every((d) => d >= 1 && d <= 365) && days.every((d, i) => i === 0 || d > days[i - 1]!);
    if (!ok) {
      ctx.addIssue({ code: 'custom', message: 'must be up to 10 whole numbers of days (1–365), ascending and comma-separated, e.g. 3,7,14' });
      return z.NEVER;
    }
    return days;
  });

// "21-8": no reminder from 21:00 to 08:00 in the recipient's zone; "off": none held back.
const QuietHours = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (value === 'off') return null;
    const m = /^(\d{1,2})-(\d{1,2})$/.exec(value);
    const start = Number(m?.[1]);
    const end = Number(m?.[2]);
    if (!m || start > 23 || end > 23 || start === end) {
      ctx.addIssue({ code: 'custom', message: 'must be two different hours 0–23 as START-END (e.g. 21-8), or off' });
      return z.NEVER;
    }
    return { start, end };
  });

const TimeZone = z
  .string()
  .trim()
  .refine((value) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: value });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Europe/London or UTC');

const MetricsToken = z
  .string()
  .trim()
  .min(16, 'must be at least 16 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

const OtlpEndpoint = z
  .string()
  .trim()
  .refine((value) => {
    const url = parseUrl(value);
    return !!url && (url.protocol === 'http:' || url.protocol === 'https:');
  }, 'must be an http(s) URL of an OTLP/HTTP collector, e.g. http://localhost:4318');

const Schema = z.object({
  PORTAL_BASE_URL: optional(PortalBaseUrl),
  PORTAL_API_KEY: optional(ApiKey),
  PORTAL_TIMEOUT_MS: optional(wholeNumber(100, 600_000, 'milliseconds')),
  SESSION_SECRET: optional(SessionSecret),
  DATABASE_URL: optional(DatabaseUrl),
  DATA_DIR: optional(z.string()),
  SESSION_IDLE_MINUTES: optional(wholeNumber(1, 1440, 'minutes')),
  SESSION_ABSOLUTE_HOURS: optional(wholeNumber(1, 720, 'hours')),
  APP_ORIGIN: optional(AppOrigin),
  LOG_LEVEL: optional(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })),
  WEBHOOK_SECRET: optional(WebhookSecret),
  WORKSPACE_RECONCILE_MINUTES: optional(wholeNumber(0, 1440, 'minutes')),
  WORKSPACE_WAITING_DAYS: optional(wholeNumber(1, 365, 'days')),
  TRUSTED_PROXY_HOPS: optional(wholeNumber(0, 10, 'proxies')),
  SMTP_URL: optional(SmtpUrl),
  MAIL_FROM: optional(MailFrom),
  MAIL_RETRY_SECONDS: optional(wholeNumber(1, 3600, 'seconds')),
  MAIL_DAILY_CAP: optional(wholeNumber(1, 1000, 'messages')),
  REMINDER_SCHEDULE_DAYS: optional(ReminderDays),
  REMINDER_TIME_SCALE: optional(wholeNumber(1, 1_000_000, 'times')),
  REMINDER_QUIET_HOURS: optional(QuietHours),
  REMINDER_TIME_ZONE: optional(TimeZone),
  REMINDER_NOW_MINUTES: optional(wholeNumber(1, 1440, 'minutes')),
  HISTORY_RETENTION_DAYS: optional(wholeNumber(0, 3650, 'days')),
  DRAIN_GRACE_MS: optional(wholeNumber(1_000, 600_000, 'milliseconds')),
  METRICS_TOKEN: optional(MetricsToken),
  OTEL_EXPORTER_OTLP_ENDPOINT: optional(OtlpEndpoint),
  TRACING: optional(z.enum(['auto', 'on', 'off'], { error: 'must be auto, on or off' })),
});

export interface ParseEnvOptions {
  /** Base of a relative DATA_DIR and of the default one; process.cwd() unless a test says otherwise. */
  cwd?: string;
}

/** Pure: parses `source` (process.env or a test's object) or throws an EnvError naming every bad variable. */
export function parseEnv(source: EnvSource, options: ParseEnvOptions = {}): Env {
  const problems: Array<{ variable: string; message: string }> = [];
  const parsed = Schema.safeParse(source);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push({ variable: String(issue.path[0] ?? '(configuration)'), message: issue.message });
    }
  }
  const e = parsed.success ? parsed.data : null;
  const rawBaseUrlSet = typeof source.PORTAL_BASE_URL === 'string' && source.PORTAL_BASE_URL.trim() !== '';
  const rawKeySet = typeof source.PORTAL_API_KEY === 'string' && source.PORTAL_API_KEY.trim() !== '';
  // The demo key only makes sense for the sandbox; anywhere else a missing key must stop start-up.
  if (rawBaseUrlSet && !rawKeySet) {
    problems.push({ variable: 'PORTAL_API_KEY', message: 'is required when PORTAL_BASE_URL is set' });
  }
  const idle = e?.SESSION_IDLE_MINUTES ?? DEFAULT_IDLE_MINUTES;
  const absolute = e?.SESSION_ABSOLUTE_HOURS ?? DEFAULT_ABSOLUTE_HOURS;
  if (e && idle > absolute * 60) {
    problems.push({ variable: 'SESSION_IDLE_MINUTES', message: `must not exceed SESSION_ABSOLUTE_HOURS × 60 (${absolute * 60} minutes)` });
  }
  if (problems.length > 0 || !e) throw new EnvError(problems);

  const baseUrl = e.PORTAL_BASE_URL ?? new URL(SANDBOX_BASE_URL);
  const portalIsLocal = isLoopback(baseUrl);

  const warnings: string[] = [];
  if (!e.SESSION_SECRET && !portalIsLocal) {
    warnings.push('SESSION_SECRET is not set: sessions are sealed with the public development secret. Set SESSION_SECRET (32+ characters) before anyone else uses this app.');
  }
  if (baseUrl.protocol === 'http:' && !portalIsLocal) {
    warnings.push('PORTAL_BASE_URL uses plain http to a host that is not this machine: the API key travels unencrypted.');
  }

  const cwd = options.cwd ?? process.cwd();
  // A run-time location, not a file of the app: the build's file tracing must not follow it (it took the whole project into the standalone output).
  const dataDir = e.DATA_DIR
    ? isAbsolute(e.DATA_DIR)
      ? resolve(/*turbopackIgnore: true*/ e.DATA_DIR)
      : resolve(/*turbopackIgnore: true*/ cwd, e.DATA_DIR)
    : join(/*turbopackIgnore: true*/ cwd, DEFAULT_DATA_DIR_NAME);

  return Object.freeze({
    portalBaseUrl: baseUrl.href,
    portalApiKey: e.PORTAL_API_KEY ?? SANDBOX_API_KEY,
    portalTimeoutMs: e.PORTAL_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS,
    portalIsLocal,
    sessionSecret: e.SESSION_SECRET ?? DEV_SESSION_SECRET,
    sessionSecretIsDefault: !e.SESSION_SECRET,
    databaseUrl: e.DATABASE_URL ?? null,
    dataDir,
    sessionIdleMinutes: idle,
    sessionAbsoluteHours: absolute,
    appOrigin: e.APP_ORIGIN ?? null,
    logLevel: e.LOG_LEVEL ?? 'info',
    webhookSecret: e.WEBHOOK_SECRET ?? null,
    reconcileMinutes: e.WORKSPACE_RECONCILE_MINUTES ?? DEFAULT_RECONCILE_MINUTES,
    waitingDays: e.WORKSPACE_WAITING_DAYS ?? DEFAULT_WAITING_DAYS,
    trustedProxyHops: e.TRUSTED_PROXY_HOPS ?? 0,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM ?? DEFAULT_MAIL_FROM,
    mailRetrySeconds: e.MAIL_RETRY_SECONDS ?? DEFAULT_MAIL_RETRY_SECONDS,
    mailDailyCap: e.MAIL_DAILY_CAP ?? DEFAULT_MAIL_DAILY_CAP,
    reminderScheduleDays: Object.freeze([...(e.REMINDER_SCHEDULE_DAYS ?? DEFAULT_REMINDER_SCHEDULE_DAYS)]),
    reminderTimeScale: e.REMINDER_TIME_SCALE ?? 1,
    // An explicit "off" parses to null, which must not fall back to the default.
    reminderQuietHours: e.REMINDER_QUIET_HOURS === undefined ? DEFAULT_REMINDER_QUIET_HOURS : e.REMINDER_QUIET_HOURS,
    reminderTimeZone: e.REMINDER_TIME_ZONE ?? DEFAULT_REMINDER_TIME_ZONE,
    reminderNowMinutes: e.REMINDER_NOW_MINUTES ?? DEFAULT_REMINDER_NOW_MINUTES,
    historyRetentionDays: e.HISTORY_RETENTION_DAYS ?? DEFAULT_HISTORY_RETENTION_DAYS,
    drainGraceMs: e.DRAIN_GRACE_MS ?? DEFAULT_DRAIN_GRACE_MS,
    metricsToken: e.METRICS_TOKEN ?? null,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
    tracing: e.TRACING === 'on' || (e.TRACING !== 'off' && !!e.OTEL_EXPORTER_OTLP_ENDPOINT),
    warnings: Object.freeze(warnings),
  });
}
