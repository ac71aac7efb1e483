import 'server-only';
import { randomBytes } from 'node:crypto';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { processWide } from '@/server/process-wide';

/**
 * The whole form a page read on the server, held for the browser's next request: the page sends only its
 * opening (lib/forms/opening), and the browser asks for the rest right after, naming the token it got. Handing
 * over what was read a moment ago saves reading application, answers, items and files upstream a second time
 * (the form must open with one upstream read). One use, one minute, the same session and application; a miss (another instance, a
 * retry, an expiry; with APP_INSTANCES > 1, another process) is simply read upstream again.
 */

const TTL_MS = 60_000;
/** A large form's snapshot is under a megabyte and shares its contract with the contract cache. */
const MAX_HELD = 32;

interface Held {
  readonly sid: string;
  readonly target: string;
  readonly snapshot: FormSnapshotView;
  readonly expiresAt: number;
}

// The page that hands over and the route that takes are in different bundles of the Next server.
const held = processWide('form-handover', () => new Map<string, Held>());

function prune(now: number) {
  for (const [token, h] of held) if (h.expiresAt <= now) held.delete(token);
  // Oldest first (a Map keeps insertion order).
  for (const token of held.keys()) {
    if (held.size < MAX_HELD) break;
    held.delete(token);
  }
}

/** Holds `snapshot` for session `sid`'s next read of the form of `target` (the application's id); returns the token to name. */
export function handOver(sid: string, target: string, snapshot: FormSnapshotView): string {
  const now = Date.now();
  prune(now);
  const token = randomBytes(16).toString('base64url');
  held.set(token, { sid, target, snapshot, expiresAt: now + TTL_MS });
  return token;
}

/** The snapshot held under `token` for this session and target, once; undefined otherwise. */
export function takeOver(token: string, sid: string, target: string): FormSnapshotView | undefined {
  const h = held.get(token);
  if (h === undefined) return undefined;
  held.delete(token);
  if (h.expiresAt <= Date.now() || h.sid !== sid || h.target !== target) return undefined;
  return h.snapshot;
}
