import 'server-only';
import { processWide } from '@/server/process-wide';

/*
 * What stops when the process is asked to (SIGTERM): each long-running worker (a job queue, a mail sender, a
 * live stream) registers how it stops, and the drain calls every one of them, in parallel, within a deadline.
 * One registry per process (processWide): Next bundles route handlers and instrumentation separately.
 */

const stops = () => processWide('drain-registry', () => new Map<string, () => Promise<void>>());

/** Registers how a worker stops; a second registration under the same name replaces the first (a reload in dev). */
export function onDrain(name: string, stop: () => Promise<void>): void {
  stops().set(name, stop);
}

/**
 * Calls every registered stop at once and resolves when all have finished or `deadlineMs` has passed,
 * whichever is first; a stop that throws or overruns is named in the returned list, never rethrown.
 */
export async function drainAll(deadlineMs: number): Promise<void> {
  await drainAllReporting(deadlineMs);
}

/** drainAll, telling which stops failed or were still running at the deadline. */
export async function drainAllReporting(deadlineMs: number): Promise<{ failed: string[]; overran: string[] }> {
  const registered = [...stops()];
  const pending = new Set(registered.map(([name]) => name));
  const failed: string[] = [];
  const all = Promise.all(
    registered.map(async ([name, stop]) => {
      try {
        await stop();
      } catch {
        failed.push(name);
      } finally {
        pending.delete(name);
      }
    }),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadlineMs));
    timer.unref?.();
  });
  await Promise.race([all, deadline]);
  clearTimeout(timer);
  return { failed, overran: [...pending] };
}
