/**
 * When the browser runs work that need not hold up what the person sees. Browser-only (no React); where
 * the APIs are missing (tests, the server) a timer stands in.
 */

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

/** One channel for every afterNextPaint: the frame callback only posts a message. */
let paintedChannel: { port: MessagePort; queue: (() => void)[] } | null = null;

/**
 * Runs fn in a task after the next frame is rendered: a message posted from requestAnimationFrame is
 * handled once that frame's style, layout and paint are done. Where there are no frames (tests, a page
 * already hidden) a timer runs it instead. A page hidden while fn waits draws no frame either: the caller
 * runs fn itself then (visibilitychange), and fn must do nothing the second time.
 */
export function afterNextPaint(fn: () => void) {
  const frames =
    typeof requestAnimationFrame === 'function' && typeof MessageChannel === 'function' && typeof document !== 'undefined' && document.visibilityState === 'visible';
  if (!frames) {
    setTimeout(fn, 0);
    return;
  }
  if (paintedChannel === null) {
    const channel = new MessageChannel();
    const state = { port: channel.port2, queue: [] as (() => void)[] };
    channel.port1.onmessage = () => state.queue.shift()?.();
    paintedChannel = state;
  }
  const painted = paintedChannel;
  requestAnimationFrame(() => {
    painted.queue.push(fn);
    painted.port.postMessage(null);
  });
}
