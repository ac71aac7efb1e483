import type { LogLevel } from '@/server/log/levels';

/** Variables as read from process.env (or a test's stand-in). */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/** The parsed configuration (see ENV_DOCS for each variable's meaning and default). */
export interface Env {
  /** Normalised absolute URL, ending in /v1/. */
  readonly portalBaseUrl: string;
  readonly portalApiKey: string;
  readonly portalTimeoutMs: number;
  /** The Portal runs on this machine (loopback host): the embedded sandbox or a local one. */
  readonly portalIsLocal: boolean;
  readonly sessionSecret: string;
  /** True when SESSION_SECRET was absent and the public development value is in use. */
  readonly sessionSecretIsDefault: boolean;
  /** postgres:// or postgresql:// URL; null means the embedded database under dataDir. */
  readonly databaseUrl: string | null;
  /** Absolute path. */
  readonly dataDir: string;
  readonly sessionIdleMinutes: number;
  readonly sessionAbsoluteHours: number;
  /** Public origin (scheme://host[:port]) for CSRF Origin checks; null = derive from the request. */
  readonly appOrigin: string | null;
  readonly logLevel: LogLevel;
  readonly webhookSecret: string | null;
  /** Minutes between reconcile passes of the workspace's read model (one at start too); 0: only on demand. */
  readonly reconcileMinutes: number;
  /** Staff home: an invited application with no activity for this many days waits on the client. */
  readonly waitingDays: number;
  /** Proxies in front of the app whose X-Forwarded-For entries are believed; 0 = the socket's address. */
  readonly trustedProxyHops: number;
  /** smtp:// or smtps:// URL mail is delivered through; null: messages stay queued (npm start runs a local server). */
  readonly smtpUrl: string | null;
  /** The From header of every message. */
  readonly mailFrom: string;
  /** First wait before a message refused for now (SMTP 4xx, no connection) is tried again; doubles each time. */
  readonly mailRetrySeconds: number;
  /** At most this many messages to one address per UTC day; more wait for the next day (shown in the Outbox). */
  readonly mailDailyCap: number;
  /** The default reminder schedule: days after the invitation. */
  readonly reminderScheduleDays: readonly number[];
  /** Reminder time runs this many times faster (demos, tests): 1440 makes a day pass in a minute. */
  readonly reminderTimeScale: number;
  /** Local hours (recipient's zone) in which no reminder goes out, START to END; null: none. */
  readonly reminderQuietHours: { readonly start: number; readonly end: number } | null;
  /** The zone of an invitation that names none. */
  readonly reminderTimeZone: string;
  /** "Send a reminder now" at most once per this many minutes per invitation. */
  readonly reminderNowMinutes: number;
  /** Days answer history is kept; 0: none is recorded. */
  readonly historyRetentionDays: number;
  /** SIGTERM: how long in-flight requests and workers get before the process exits regardless. */
  readonly drainGraceMs: number;
  /** Bearer token of GET /api/metrics; null turns metrics off (the route answers 404). */
  readonly metricsToken: string | null;
  /** OTLP/HTTP collector the traces go to; null exports nothing. */
  readonly otlpEndpoint: string | null;
  /** Spans are recorded (TRACING=on, or auto with an OTLP endpoint). */
  readonly tracing: boolean;
  /** Things worth telling an operator once at start-up (already logged by getEnv()). */
  readonly warnings: readonly string[];
}
