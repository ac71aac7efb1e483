import 'server-only';
import { appDb } from '@/server/db/app-db';
import { EnvError, getEnv } from '@/server/env';
import { answerOversizedHeads } from '@/server/http/oversized-head';
import { log } from '@/server/log';
import { openStreamCount } from '@/server/live/event-stream';
import { addGauge } from '@/server/ops/metrics';
import { addOutboxGauge } from '@/server/ops/outbox-gauge';
import { refreshPortalCheck } from '@/server/ops/readiness';
import { startTracing } from '@/server/ops/tracing';
import { inFlight } from './in-flight';
import { enterPhase } from './phase';
import { installShutdown } from './shutdown';

/** How long to wait before opening the database again after a failed start. */
const REOPEN_MS = 2_000;

/**
 * The server's start: SIGTERM drains from now on; tracing starts when configured; the database is opened and migrated, after which the
 * instance is serving (readiness then depends on its checks alone). A database that cannot be opened is
 * tried again until it can, with the instance not ready meanwhile.
 */
export async function startLifecycle(): Promise<void> {
  // Every setting is checked before anything else: a bad one stops the server with the message naming it,
  // rather than every request failing later.
  try {
    getEnv();
  } catch (e) {
    if (!(e instanceof EnvError)) throw e;
    log.error(e.message, { component: 'env' });
    process.exit(1);
  }
  installShutdown();
  answerOversizedHeads();
  // Before the first query or Portal call, so their spans are recorded (a failure leaves the app untraced, not down).
  await startTracing().catch((e: unknown) => log.error('tracing could not start', { error: e }));
  refreshPortalCheck();
  addGauge('in_flight_requests', 'API requests being handled now.', inFlight);
  addGauge('live_streams', 'Live-update streams (server-sent events) open now.', openStreamCount);
  addOutboxGauge();
  const open = () => {
    appDb().then(
      () => enterPhase('serving'),
      (e: unknown) => {
        log.error('database could not be opened; trying again', { error: e, retry_in_ms: REOPEN_MS });
        setTimeout(open, REOPEN_MS).unref();
      },
    );
  };
  open();
}
