/**
 * True the first time a key is seen at a revision newer than any seen before for it, false after: work that
 * needs doing once per revision of something (a whole answer set noted for history, what is left of an
 * application kept for reminders). Remembers the `max` keys seen last.
 */
export function oncePerRevision(max = 10_000): (key: string, revision: number) => boolean {
  const seen = new Map<string, number>();
  return (key, revision) => {
    const last = seen.get(key);
    if (last !== undefined && revision <= last) return false;
    // Re-inserted, so the oldest key is the first to go.
    seen.delete(key);
    seen.set(key, revision);
    if (seen.size > max) seen.delete(seen.keys().next().value!);
    return true;
  };
}
