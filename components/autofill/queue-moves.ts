/**
 * Where the review queue's keys move: only between suggestions still waiting for a decision, since a decided
 * one can be neither accepted nor dismissed. `waiting[i]` says whether the i-th card (display order) waits.
 */

/** The next waiting card from `from` (not itself) in the direction, or null when there is none that way. */
export function nextWaiting(waiting: readonly boolean[], from: number, delta: 1 | -1): number | null {
  for (let i = from + delta; i >= 0 && i < waiting.length; i += delta) if (waiting[i]) return i;
  return null;
}

/** The card to land on at `at`: itself when it waits, else the next waiting one after it, else the one before. */
export function nearestWaiting(waiting: readonly boolean[], at: number): number | null {
  const i = Math.max(0, Math.min(at, waiting.length - 1));
  if (waiting[i]) return i;
  return nextWaiting(waiting, i, 1) ?? nextWaiting(waiting, i, -1);
}

/** After the card at `at` was decided: the next waiting one after it, else the one before it. */
export const afterDecision = (waiting: readonly boolean[], at: number): number | null => nextWaiting(waiting, at, 1) ?? nextWaiting(waiting, at, -1);
