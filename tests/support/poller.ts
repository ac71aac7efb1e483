/**
 * `until(read, done, what)`: reads every `everyMs` until `done` holds, and after `timeoutMs` (or the call's
 * own) fails naming what it waited for and the last value read.
 */
export function poller({ timeoutMs, everyMs }: { timeoutMs: number; everyMs: number }) {
  return async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, withinMs = timeoutMs): Promise<T> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const v = await read();
      if (done(v)) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  };
}
