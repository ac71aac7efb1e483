// Without zod (unlike workspace.ts, which re-exports it): the board and the home pages' client code use it.

const MINUTE_MS = 60_000;

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago": how long ago an ISO time was, from `now`. */
export function ago(iso: string, now: Date): string {
  const ms = Math.max(0, now.getTime() - Date.parse(iso));
  if (ms < MINUTE_MS) return 'just now';
  const [n, unit] =
    ms < 60 * MINUTE_MS ? [Math.floor(ms / MINUTE_MS), 'minute'] : ms < 48 * 60 * MINUTE_MS ? [Math.floor(ms / (60 * MINUTE_MS)), 'hour'] : [Math.floor(ms / (24 * 60 * MINUTE_MS)), 'day'];
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}
