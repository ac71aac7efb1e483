import 'server-only';
import { processWide } from '@/server/process-wide';

/** The API requests being handled now, so a drain can wait for them to finish before the server closes. */
const state = () => processWide('in-flight', () => ({ count: 0, idle: new Set<() => void>() }));

/** Counts `work` as in flight until it settles. */
export async function tracked<T>(work: () => Promise<T>): Promise<T> {
  const s = state();
  s.count += 1;
  try {
    return await work();
  } finally {
    s.count -= 1;
    if (s.count === 0) for (const wake of s.idle) wake();
  }
}

export const inFlight = (): number => state().count;

/** Resolves once nothing is in flight, or after `timeoutMs`; true when it was the former. */
export function settled(timeoutMs: number): Promise<boolean> {
  const s = state();
  if (s.count === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (idle: boolean) => {
      clearTimeout(timer);
      s.idle.delete(wake);
      resolve(idle);
    };
    const wake = () => done(true);
    const timer = setTimeout(() => done(false), Math.max(0, timeoutMs));
    s.idle.add(wake);
  });
}
