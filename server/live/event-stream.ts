import 'server-only';
import { LIVE_RESYNC, LIVE_SESSION_ENDED } from '@/lib/bff/live-events';
import { onDrain } from '@/server/lifecycle/drain';
import { processWide } from '@/server/process-wide';
import type { LiveBus, LiveFilter, LiveMessage } from './live-bus';

/** How long the browser waits before reconnecting after the stream ends (the SSE `retry:` field). */
export const RETRY_MS = 3_000;
export const HEARTBEAT_MS = 15_000;

export interface EventStreamOptions {
  bus: LiveBus;
  filter: LiveFilter;
  /** The request's signal: aborted when the browser goes away. */
  signal: AbortSignal;
  /** Asked at every heartbeat; false ends the stream (signed out, revoked, idle, expired). */
  stillAllowed: () => Promise<boolean>;
  heartbeatMs?: number;
  /** Called once when the stream ends, however it ends (its place under the stream caps is given back). */
  onEnd?: () => void;
}

/** How a stopping server spreads its streams' reconnections: each browser waits a random time up to this. */
export const DRAIN_RECONNECT_SPREAD_MS = 2_000;

/** The streams open in this process, each with how to end it with a reconnect hint (a drain ends them all). */
const openStreams = processWide('live-streams', () => {
  const ends = new Set<() => void>();
  onDrain('live-streams', async () => {
    for (const end of [...ends]) end();
  });
  return ends;
});

/** Live streams open in this process now (a metric). */
export const openStreamCount = (): number => openStreams.size;

const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

function frameOf(message: LiveMessage): string {
  return message.kind === 'event' ? frame(message.event) : frame({ type: LIVE_RESYNC });
}

/**
 * A `text/event-stream` reply carrying the bus's events for one object. Subscribed before the reply is
 * made, so an event sent once the browser has the first bytes is not missed. Every message is a plain
 * `data:` line holding JSON with its `type`; comments keep proxies from closing an idle connection.
 */
export async function openEventStream(o: EventStreamOptions): Promise<Response> {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const early: string[] = [];
  let closed = false;
  let heartbeat: ReturnType<typeof setInterval> | null = null;

  const write = (text: string) => {
    if (closed) return;
    if (!controller) return void early.push(text);
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      end();
    }
  };
  const end = () => {
    if (closed) return;
    closed = true;
    openStreams.delete(drainEnd);
    o.onEnd?.();
    if (heartbeat) clearInterval(heartbeat);
    unsubscribe();
    o.signal.removeEventListener('abort', end);
    try {
      controller?.close();
    } catch {
      // Already closed or errored by the runtime: nothing left to do.
    }
  };

  // The server is stopping: the browser reconnects (to another instance, or this one restarted) after the
  // `retry:` it is given, and reads the object again once it is back (use-live-events' resync).
  const drainEnd = () => {
    write(`retry: ${500 + Math.floor(Math.random() * DRAIN_RECONNECT_SPREAD_MS)}\n: server restarting\n\n`);
    end();
  };

  let unsubscribe: () => void;
  try {
    unsubscribe = await o.bus.subscribe(o.filter, (m) => write(frameOf(m)));
  } catch (e) {
    o.onEnd?.();
    throw e;
  }
  if (o.signal.aborted) {
    unsubscribe();
    o.onEnd?.();
    return new Response(null, { status: 204 });
  }
  o.signal.addEventListener('abort', end);
  openStreams.add(drainEnd);

  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(encoder.encode(`retry: ${RETRY_MS}\n: listening\n\n`));
      for (const text of early.splice(0)) c.enqueue(encoder.encode(text));
      heartbeat = setInterval(() => {
        write(': heartbeat\n\n');
        o.stillAllowed().then(
          (ok) => {
            if (ok) return;
            write(frame({ type: LIVE_SESSION_ENDED }));
            end();
          },
          // A database hiccup is not a reason to drop the stream; the next heartbeat asks again.
          () => undefined,
        );
      }, o.heartbeatMs ?? HEARTBEAT_MS);
    },
    cancel() {
      end();
    },
  });
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      // no-transform: compression would hold events back until a buffer fills.
      'Cache-Control': 'private, no-store, no-transform',
      'X-Accel-Buffering': 'no',
    },
  });
}
