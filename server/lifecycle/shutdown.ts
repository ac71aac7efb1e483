import 'server-only';
import { getEnv } from '@/server/env/get-env';
import { log } from '@/server/log';
import { processWide } from '@/server/process-wide';
import { drainAllReporting } from './drain';
import { inFlight, settled } from './in-flight';
import { enterPhase } from './phase';

type SignalHandler = (signal: NodeJS.Signals) => void;
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Takes over SIGTERM and SIGINT from the Next server (whose own handler closes the listener at once, cuts
 * live streams by waiting on them forever, and exits without asking anyone else). Ours, within DRAIN_GRACE_MS:
 * readiness goes false and new API requests are refused with a retryable 503 at once (a load balancer moves
 * away), live streams are told to reconnect and end (drain hooks), in-flight requests finish, every registered
 * worker stops; then Next's own handler closes the listener and exits. Past the grace period the process exits
 * with whatever is still open.
 */
export function installShutdown(): void {
  const installed = processWide('shutdown-installed', () => ({ done: false }));
  if (installed.done) return;
  installed.done = true;
  const next = new Map<NodeJS.Signals, SignalHandler[]>();
  for (const sig of SIGNALS) {
    next.set(sig, process.listeners(sig) as SignalHandler[]);
    process.removeAllListeners(sig);
    process.on(sig, () => void drain(sig, next.get(sig) ?? []));
  }
}

let started = false;

async function drain(signal: NodeJS.Signals, nextHandlers: SignalHandler[]) {
  if (started) return;
  started = true;
  enterPhase('draining');
  const graceMs = getEnv().drainGraceMs;
  const begun = Date.now();
  log.info('draining', { signal, grace_ms: graceMs, in_flight: inFlight() });
  // The last word whatever hangs: a supervisor would kill the process a little later anyway.
  setTimeout(() => {
    log.error('drain grace period over: exiting with work still open', { in_flight: inFlight() });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  }, graceMs + 1_000).unref();

  const [requestsDone, workers] = await Promise.all([settled(graceMs), drainAllReporting(graceMs)]);
  log.info('drained', {
    requests_finished: requestsDone,
    in_flight: inFlight(),
    workers_failed: workers.failed,
    workers_overran: workers.overran,
    ms: Date.now() - begun,
  });
  if (nextHandlers.length === 0) process.exit(signal === 'SIGINT' ? 130 : 143);
  // Next closes the listener (idle keep-alive connections included) and exits.
  for (const handler of nextHandlers) handler(signal);
}
