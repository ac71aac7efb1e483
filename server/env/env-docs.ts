import { DEFAULT_MAIL_FROM, DEFAULT_MAIL_RETRY_SECONDS, DEFAULT_ABSOLUTE_HOURS, DEFAULT_IDLE_MINUTES, DEFAULT_RECONCILE_MINUTES, DEFAULT_TIMEOUT_MS, DEFAULT_WAITING_DAYS, DEFAULT_HISTORY_RETENTION_DAYS, DEFAULT_DRAIN_GRACE_MS, SANDBOX_BASE_URL, DEFAULT_MAIL_DAILY_CAP, DEFAULT_REMINDER_SCHEDULE_DAYS, DEFAULT_REMINDER_TIME_ZONE, DEFAULT_REMINDER_NOW_MINUTES } from './defaults';

export interface EnvDoc {
  name: string;
  default: string;
  meaning: string;
}

/** The BFF's variables, in the order the README lists them; keep the README's table in step with this. */
export const ENV_DOCS: readonly EnvDoc[] = [
  {
    name: 'PORTAL_BASE_URL',
    default: `\`${SANDBOX_BASE_URL}\` (the embedded sandbox)`,
    meaning: 'Base URL of the Portal API: http(s), no user name or password, path ending in `/v1/`.',
  },
  {
    name: 'PORTAL_API_KEY',
    default: "the sandbox's full demo key, only while `PORTAL_BASE_URL` is unset",
    meaning: 'The Portal API key (at least 8 characters, no spaces). Required whenever `PORTAL_BASE_URL` is set. Server-side only.',
  },
  {
    name: 'PORTAL_TIMEOUT_MS',
    default: String(DEFAULT_TIMEOUT_MS),
    meaning: 'Time budget of one Portal call in milliseconds (100–600000), retries and their waits included.',
  },
  {
    name: 'SESSION_SECRET',
    default: 'a fixed development value (warned about when the Portal is not local)',
    meaning: 'Seals session cookies; at least 32 characters. Set it in every shared or production deployment.',
  },
  {
    name: 'DATABASE_URL',
    default: 'none: the embedded database in `DATA_DIR`',
    meaning: 'PostgreSQL URL (`postgres://` or `postgresql://`) for the BFF’s own state, shared by several instances.',
  },
  {
    name: 'DATA_DIR',
    default: '`<working directory>/.data`',
    meaning: 'Directory of the embedded database and other local state; relative paths are taken from the working directory.',
  },
  {
    name: 'SESSION_IDLE_MINUTES',
    default: String(DEFAULT_IDLE_MINUTES),
    meaning: 'A session ends after this many minutes without a request (1–1440, at most the absolute lifetime).',
  },
  {
    name: 'SESSION_ABSOLUTE_HOURS',
    default: String(DEFAULT_ABSOLUTE_HOURS),
    meaning: 'A session ends this many hours after sign-in whatever happens (1–720).',
  },
  {
    name: 'APP_ORIGIN',
    default: 'none: the address the app listens on (`http://HOST:PORT`)',
    meaning: 'Public origin of the app (e.g. `https://intake.example.com`): the origin of the links it hands out (invitation links), its cookies’ scope, and what the Origin header of writes must be.',
  },
  {
    name: 'LOG_LEVEL',
    default: 'info',
    meaning: 'Least severe log level written: `debug`, `info`, `warn` or `error`. Logs are JSON lines on stdout.',
  },
  {
    name: 'WEBHOOK_SECRET',
    default: 'none: `POST /api/webhooks/portal` answers 503 (`npm start` with the embedded sandbox shares one with it)',
    meaning: 'Standard Webhooks signing secret (`whsec_…`) of the Portal’s deliveries to `/api/webhooks/portal`, which drive the live updates.',
  },
  {
    name: 'WORKSPACE_RECONCILE_MINUTES',
    default: String(DEFAULT_RECONCILE_MINUTES),
    meaning: 'The workspace’s reconciler walks the Portal at start and then every this many minutes (0–1440; `0`: only when staff press “Refresh now”).',
  },
  {
    name: 'WORKSPACE_WAITING_DAYS',
    default: String(DEFAULT_WAITING_DAYS),
    meaning: 'Staff home lists an invited, unsubmitted application as waiting on the client after this many days without activity (1–365).',
  },
  {
    name: 'HISTORY_RETENTION_DAYS',
    default: String(DEFAULT_HISTORY_RETENTION_DAYS),
    meaning: 'Days the history of every answer (who changed it, from what to what) is kept (0–3650; `0`: no history is recorded).',
  },
  {
    name: 'TRUSTED_PROXY_HOPS',
    default: '0: the address of the connection',
    meaning:
      'How many proxies in front of the app append to `X-Forwarded-For` (0–10); the client is that many entries from the right, and anything further left is ignored. Sign-in throttling counts per client address.',
  },
  {
    name: 'SMTP_URL',
    default: 'none: `npm start` runs a local SMTP server and points the app at it; a bare `next start` keeps mail queued',
    meaning:
      'Where mail is delivered: `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://user:password@host:465` (TLS). Staff read every message, with its status, on the Outbox page.',
  },
  {
    name: 'MAIL_FROM',
    default: `\`${DEFAULT_MAIL_FROM}\``,
    meaning: 'The From of every message: an address or `Name <address>` your SMTP provider lets you send as.',
  },
  {
    name: 'MAIL_RETRY_SECONDS',
    default: String(DEFAULT_MAIL_RETRY_SECONDS),
    meaning: 'A message the SMTP server refuses for now (4xx, no connection) is tried again after this many seconds, doubling each time, up to 8 tries (1–3600; tests and demos use 1).',
  },
  {
    name: 'MAIL_DAILY_CAP',
    default: String(DEFAULT_MAIL_DAILY_CAP),
    meaning: 'At most this many messages to one address per UTC day (1–1000); more wait until the next day, and the Outbox says so.',
  },
  {
    name: 'REMINDER_SCHEDULE_DAYS',
    default: `\`${DEFAULT_REMINDER_SCHEDULE_DAYS.join(',')}\``,
    meaning:
      'The default reminder schedule of a mailed invitation: days after it was sent, ascending, comma-separated (up to 10, each 1–365). Staff may give an invitation its own. With a due date, one more reminder goes at the due date, and the inviting staff member is told too.',
  },
  {
    name: 'REMINDER_TIME_SCALE',
    default: '1 (real time)',
    meaning:
      'Makes reminder time run this many times faster, for demos and tests (1–1000000): 1440 makes a day of the schedule (and of the time to the due date) pass in a minute, 86400 in a second. Leave it at 1 in production.',
  },
  {
    name: 'REMINDER_QUIET_HOURS',
    default: '`21-8`',
    meaning: 'No reminder is sent between these local hours (0–23, START-END) in the recipient\'s time zone: one due then waits until the end. `off` sends at any hour.',
  },
  {
    name: 'REMINDER_TIME_ZONE',
    default: `\`${DEFAULT_REMINDER_TIME_ZONE}\``,
    meaning: 'The IANA time zone (e.g. Europe/London) of an invitation whose recipient\'s zone is not known: quiet hours and the due date are read in it.',
  },
  {
    name: 'REMINDER_NOW_MINUTES',
    default: String(DEFAULT_REMINDER_NOW_MINUTES),
    meaning: '"Send a reminder now" works at most once per this many minutes per invitation (1–1440); sooner answers 429 with Retry-After.',
  },
  {
    name: 'DRAIN_GRACE_MS',
    default: String(DEFAULT_DRAIN_GRACE_MS),
    meaning:
      'On SIGTERM the app stops being ready and refuses new API requests with a retryable 503 at once, tells live streams to reconnect, and gives in-flight requests and workers this many milliseconds (1000–600000) to finish before it exits.',
  },
  {
    name: 'METRICS_TOKEN',
    default: 'none: metrics are off and `GET /api/metrics` answers 404',
    meaning: 'Bearer token (16+ printable characters) a Prometheus scraper sends to `GET /api/metrics`.',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    default: 'none: no trace leaves the process',
    meaning: 'OTLP/HTTP collector (e.g. `http://localhost:4318`) the OpenTelemetry traces are exported to; setting it turns tracing on.',
  },
  {
    name: 'TRACING',
    default: '`auto`: on exactly when `OTEL_EXPORTER_OTLP_ENDPOINT` is set',
    meaning: '`on` records spans (and sends `traceparent` to the Portal) even with no exporter; `off` records none.',
  },
];
