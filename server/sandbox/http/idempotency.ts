import { createHash } from 'node:crypto';
import { SandboxError } from './errors';
import type { Reply } from './context';

interface Entry {
  fingerprint: string;
  reply: Reply | null; // null while the first request is still being handled
  at: number;
}

/** A key whose first reply is stored, as the data file keeps it (`<api key id>\n<Idempotency-Key>` → entry). */
export type SavedIdempotency = Record<string, { fingerprint: string; reply: Reply; at: number }>;

const RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Idempotency keys per API key, kept 24 h (DESIGN.md §5). With a data file they survive a restart: the
 * finished ones are saved with the state (`saved()`, `load()`), so an identical retry after a restart
 * replays the first reply instead of creating a second object. `onStored` tells the owner to save.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  constructor(
    private readonly now: () => number = () => Date.now(),
    private readonly onStored: () => void = () => {},
  ) {}

  /** The finished keys still within their 24 hours, oldest first. */
  saved(): SavedIdempotency {
    this.sweep();
    const out: SavedIdempotency = {};
    for (const [id, e] of this.entries) if (e.reply) out[id] = { fingerprint: e.fingerprint, reply: e.reply, at: e.at };
    return out;
  }

  /** Takes the keys of a data file (those past their 24 hours are dropped). */
  load(saved: SavedIdempotency | undefined) {
    this.entries.clear();
    const entries = Object.entries(saved ?? {}).sort(([, a], [, b]) => a.at - b.at);
    for (const [id, e] of entries) this.entries.set(id, { fingerprint: e.fingerprint, reply: e.reply, at: e.at });
    this.sweep();
  }

  static fingerprint(method: string, path: string, body: Buffer, ifMatch: string | undefined) {
    return createHash('sha256').update(`${method}\n${path}\n${ifMatch ?? ''}\n`).update(body).digest('base64url');
  }

  private sweep() {
    const cutoff = this.now() - RETENTION_MS;
    for (const [k, e] of this.entries) {
      if (e.at >= cutoff) break; // insertion order is time order
      this.entries.delete(k);
    }
  }

  /** Returns the stored reply for an identical retry, or null when the request is new (and reserves the key). */
  begin(scope: string, key: string, fingerprint: string): Reply | null {
    this.sweep();
    const id = `${scope}\n${key}`;
    const e = this.entries.get(id);
    if (!e) {
      this.entries.set(id, { fingerprint, reply: null, at: this.now() });
      return null;
    }
    if (e.fingerprint !== fingerprint) {
      throw new SandboxError(
        'idempotency_key_reused',
        'This Idempotency-Key was used for a different request; use a new key for a new command.',
        [{ code: 'idempotency_key_reused', message: 'Same key, different method, path, body or precondition.', parameter: 'Idempotency-Key' }],
      );
    }
    if (!e.reply) {
      throw new SandboxError('conflict', 'A request with this Idempotency-Key is still being processed; retry shortly.', [
        { code: 'request_in_progress', message: 'Retry after the first request finishes.', parameter: 'Idempotency-Key' },
      ]);
    }
    return e.reply;
  }

  /** Stores the reply to replay; server errors and throttling release the key so a retry runs again. */
  finish(scope: string, key: string, reply: Reply) {
    const id = `${scope}\n${key}`;
    if (reply.status >= 500 || reply.status === 429) this.entries.delete(id);
    else {
      const e = this.entries.get(id);
      if (e) e.reply = reply;
      this.onStored();
    }
  }

  release(scope: string, key: string) {
    this.entries.delete(`${scope}\n${key}`);
  }

  /** Forgets every key (sandbox reset). */
  clear() {
    this.entries.clear();
  }
}
