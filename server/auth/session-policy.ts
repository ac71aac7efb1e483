import 'server-only';

/** Lifetimes of a session (SESSION_IDLE_MINUTES, SESSION_ABSOLUTE_HOURS). */
export interface SessionPolicy {
  idleMinutes: number;
  absoluteHours: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMinutes: 30, absoluteHours: 12 };

/**
 * last_seen_at is written at most this often, so a busy session costs one write a minute rather than
 * one per request; the idle timeout is therefore exact to within this interval.
 */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;
