import 'server-only';
import { processWide } from '@/server/process-wide';

type Stop = () => Promise<void>;

/** The background workers of this process, each with how it stops (finishing what it holds). */
const registry = processWide('drain-registry', () => new Map<string, Stop>());

/** Registers a worker's stop under a name (a second registration of the name replaces the first). */
export function onDrain(name: string, stop: Stop): void {
  registry.set(name, stop);
}

/** Stops every registered worker at once and waits for them, at most deadlineMs; a failed stop does not hold up the rest. */
export async function drainAll(deadlineMs: number): Promise<void> {
  const stops = [...registry.values()];
  registry.clear();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, deadlineMs);
  });
  await Promise.race([Promise.allSettled(stops.map((stop) => stop())), deadline]);
  clearTimeout(timer);
}
