/** Non-secret defaults (no 'server-only' here, so the README or a script can read ENV_DOCS). */

/** `npm start` runs the sandbox here; the BFF's defaults describe exactly that setup. */
export const SANDBOX_BASE_URL = 'http://127.0.0.1:4010/v1/';
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_IDLE_MINUTES = 30;
export const DEFAULT_ABSOLUTE_HOURS = 12;
export const DEFAULT_DATA_DIR_NAME = '.data';
/** The workspace's reconciler runs at start and then this often; its "waiting on the client" means this many quiet days. */
export const DEFAULT_RECONCILE_MINUTES = 15;
export const DEFAULT_WAITING_DAYS = 7;
/** Mail: the From of every message, and the first wait before a message refused for now is tried again. */
export const DEFAULT_MAIL_FROM = 'Intake <intake@localhost>';
export const DEFAULT_MAIL_RETRY_SECONDS = 30;
/** Reminders: days after the invitation, quiet hours (local 21:00–08:00), the default zone, send-now spacing, daily cap. */
export const DEFAULT_REMINDER_SCHEDULE_DAYS: readonly number[] = [3, 7, 14];
export const DEFAULT_REMINDER_QUIET_HOURS = { start: 21, end: 8 } as const;
export const DEFAULT_REMINDER_TIME_ZONE = 'UTC';
export const DEFAULT_REMINDER_NOW_MINUTES = 60;
export const DEFAULT_MAIL_DAILY_CAP = 5;
/** Two years of answer history: long enough for a funder's questions about an application's past. */
export const DEFAULT_HISTORY_RETENTION_DAYS = 730;
/** How long a stopping instance gives in-flight requests and workers (SIGTERM); under Kubernetes' default 30 s. */
export const DEFAULT_DRAIN_GRACE_MS = 25_000;
