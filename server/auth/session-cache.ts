import 'server-only';
import { perDb } from '@/server/db/per-db';
import type { Db } from '@/server/db/types';
import { log } from '@/server/log';
import type { ResolvedSession } from './sessions';

/** Channel of the database triggers (migration 006) that announce every change able to end a session. */
export const SESSION_CHANNEL = 'session_changed';

/** Past this many sessions the oldest is dropped: a bound on memory, not a tuning knob. */
const MAX_ENTRIES = 10_000;

/** A resolved session and the times it is good until without asking the database again. */
export interface CachedSession {
  session: ResolvedSession;
  /** last_seen_at as this instance last wrote or read it (ms). */
  lastSeenMs: number;
  /** Absolute expiry, or the invitation's, whichever is first (ms). */
  validUntilMs: number;
}

/**
 * This instance's memory of the sessions it has resolved, so most requests cost no database round trip.
 * It serves only while its LISTEN on session_changed is up: the triggers announce, on commit, every change
 * that may end a session (sign-out, user disabled or changed, invitation revoked, a row edited by hand), and
 * an announcement drops the matching entries here and in every other instance. Time-based ends (idle,
 * absolute, invitation expiry) are checked on each hit, and an entry is read again from the database once
 * its last_seen_at is a touch interval old (which is when the touch is due anyway). A read that was in
 * flight while any announcement arrived is not kept: it may predate the change.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  private generation = 0;
  private live = false;
  private listening: Promise<void> | null = null;

  constructor(private readonly db: Db) {}

  /** The session when cached and still good at nowMs, given the idle window and the touch interval. */
  get(sid: string, nowMs: number, idleMs: number, touchMs: number): ResolvedSession | null {
    if (!this.live) {
      void this.listen();
      return null;
    }
    const e = this.entries.get(sid);
    if (!e) return null;
    if (nowMs >= e.validUntilMs || nowMs - e.lastSeenMs >= Math.min(idleMs, touchMs)) {
      this.entries.delete(sid);
      return null;
    }
    return e.session;
  }

  /** Resolves once the cache serves (its LISTEN is up); requests never wait for this, tests do. */
  async ready(): Promise<void> {
    while (!this.live) await this.listen();
  }

  /** A token to pass to put: entries read before an announcement are not kept. */
  mark(): number {
    return this.generation;
  }

  put(sid: string, entry: CachedSession, mark: number) {
    if (!this.live || mark !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(sid, entry);
  }

  /** An announcement: `sid:<id>`, `user:<id>` or `invitation:<id>`; anything else forgets everything. */
  forget(payload: string) {
    this.generation++;
    const colon = payload.indexOf(':');
    const kind = payload.slice(0, colon);
    const id = payload.slice(colon + 1);
    if (kind === 'sid') return void this.entries.delete(id);
    const drop =
      kind === 'user'
        ? (s: ResolvedSession) => s.kind === 'user' && s.userId === id
        : kind === 'invitation'
          ? (s: ResolvedSession) => s.kind === 'client' && s.invitationId === id
          : () => true;
    for (const [sid, e] of this.entries) if (drop(e.session)) this.entries.delete(sid);
  }

  private forgetAll(live: boolean) {
    this.generation++;
    this.entries.clear();
    this.live = live;
  }

  private listen(): Promise<void> {
    this.listening ??= this.db
      .listen(SESSION_CHANNEL, (payload) => this.forget(payload), {
        // While the subscription is down announcements are missed: serve nothing from memory.
        onDisconnect: () => this.forgetAll(false),
        onReconnect: () => this.forgetAll(true),
      })
      .then(
        () => {
          this.forgetAll(true);
        },
        (err: unknown) => {
          log.warn('session cache: LISTEN failed, sessions are read from the database', { error: err instanceof Error ? err.message : String(err) });
          this.listening = null;
        },
      );
    return this.listening;
  }
}

const caches = perDb('session-cache', (db) => new SessionCache(db));

export const sessionCacheOf = (db: Db): SessionCache => caches.of(db);

/**
 * Forgets at once, in every cache of this process, what the database will announce to all instances on
 * commit: this instance's next request must not wait for the announcement to come back.
 */
export function forgetLocally(payload: string) {
  for (const cache of caches.all()) cache.forget(payload);
}
