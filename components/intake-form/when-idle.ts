/**
 * Runs `task` in the browser's next idle moment (at the latest after `timeoutMs`), or on the next turn where
 * there is no requestIdleCallback; returns how to cancel it.
 */
export function whenIdle(task: () => void, timeoutMs = 500): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, 0);
  return () => clearTimeout(id);
}
