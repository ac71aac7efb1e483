import { randomBytes } from 'node:crypto';
import { webhookHeaders } from './sign';
import type { Clock } from '../clock';
import type { EventBus, EventType, SandboxEvent } from '../events';
import { deliverySchedule, retryDelayMs } from './schedule';
import { sandboxLog } from '../sandbox-log';

export interface WebhookConfig {
  url: string | null;
  secret: string;
  maxAttempts: number;
  timeoutMs: number;
}

/** `dropped`: published while deliveries were paused (a test control), so never sent. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped';

/** One event's delivery, as the test controls show it. */
export interface DeliveryView {
  id: string;
  object: 'webhook_delivery';
  type: EventType;
  status: DeliveryStatus;
  attempts: number;
  /** HTTP status of the last attempt; null before the first reply or after a network error. */
  last_status: number | null;
  /** Why the last attempt failed (network error, timeout, non-2xx); null when it succeeded. */
  last_error: string | null;
  created_at: string;
  last_attempt_at: string | null;
  delivered_at: string | null;
  data: Record<string, unknown>;
}

interface Delivery extends DeliveryView {
  body: string;
}

/** The log keeps this many deliveries; the oldest finished ones go first. */
const LOG_LIMIT = 1000;

const newMessageId = () => `msg_${randomBytes(12).toString('hex')}`;

function describe(e: unknown): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'AbortError' || err?.name === 'TimeoutError') return 'timeout';
  return err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(e);
}

/**
 * Sends every event of the bus to the configured endpoint, signed per Standard Webhooks, as
 * `{ type, timestamp, data }` JSON. A delivery keeps its `webhook-id` across attempts; each attempt gets a fresh
 * timestamp and signature. Non-2xx replies, network errors and timeouts are retried on the sandbox clock
 * (schedule.ts) until `maxAttempts`. Deliveries are independent: no ordering between them.
 */
export class WebhookDeliverer {
  private readonly log = new Map<string, Delivery>();
  private readonly inflight = new Set<AbortController>();
  private readonly timers = new Set<() => void>();
  private generation = 0;
  private unsubscribe: (() => void) | null = null;
  /** While paused, events are logged as dropped and never sent: a lost webhook, on purpose (tests). */
  private paused = false;

  constructor(
    private readonly clock: Clock,
    private readonly events: EventBus,
    readonly config: WebhookConfig,
  ) {}

  get enabled() {
    return this.config.url !== null;
  }

  /** Subscribes to the bus; without a URL nothing is sent or logged. */
  start() {
    if (!this.config.url || this.unsubscribe) return;
    this.unsubscribe = this.events.subscribe((e) => {
      try {
        this.enqueue(e);
      } catch (err) {
        // Never let delivery bookkeeping fail the operation that published the event.
        sandboxLog.error({ err }, 'webhook enqueue failed');
      }
    });
  }

  /**
   * Sends from now on to another endpoint, or to none. The launcher and the test stacks start the
   * sandbox before the app whose address it must post to is known.
   */
  retarget(url: string | null) {
    this.config.url = url;
    if (url) this.start();
    else this.stop();
  }

  /** Pauses or resumes sending. Events published while paused are dropped for good, as a lost delivery would be. */
  setPaused(paused: boolean) {
    this.paused = paused;
  }

  get isPaused() {
    return this.paused;
  }

  /** Unsubscribes and abandons pending deliveries (server close). */
  stop() {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.abandon();
  }

  /** Forgets every delivery and cancels pending attempts (sandbox reset). */
  reset() {
    this.abandon();
    this.log.clear();
  }

  deliveries(): DeliveryView[] {
    return [...this.log.values()].map(({ body: _body, ...view }) => ({ ...view, data: structuredClone(view.data) }));
  }

  describeConfig() {
    return {
      url: this.config.url,
      paused: this.paused,
      max_attempts: this.config.maxAttempts,
      timeout_ms: this.config.timeoutMs,
      schedule_ms: deliverySchedule(this.config.maxAttempts),
    };
  }

  private abandon() {
    this.generation += 1;
    for (const cancel of this.timers) cancel();
    this.timers.clear();
    for (const ac of this.inflight) ac.abort();
    this.inflight.clear();
  }

  private enqueue(event: SandboxEvent) {
    const d: Delivery = {
      id: newMessageId(),
      object: 'webhook_delivery',
      type: event.type,
      status: 'pending',
      attempts: 0,
      last_status: null,
      last_error: null,
      created_at: event.timestamp,
      last_attempt_at: null,
      delivered_at: null,
      data: event.data,
      body: JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data }),
    };
    this.log.set(d.id, d);
    this.trim();
    if (this.paused) d.status = 'dropped';
    else this.schedule(d);
  }

  private trim() {
    if (this.log.size <= LOG_LIMIT) return;
    for (const [id, d] of this.log) {
      if (d.status !== 'pending') {
        this.log.delete(id);
        return;
      }
    }
    const oldest = this.log.keys().next().value;
    if (oldest !== undefined) this.log.delete(oldest);
  }

  private schedule(d: Delivery) {
    const generation = this.generation;
    const cancel = this.clock.after(retryDelayMs(d.attempts + 1), () => {
      this.timers.delete(cancel);
      if (generation === this.generation) void this.attempt(d, generation);
    });
    this.timers.add(cancel);
  }

  private async attempt(d: Delivery, generation: number) {
    const url = this.config.url;
    if (!url) return;
    d.attempts += 1;
    d.last_attempt_at = new Date().toISOString();
    const ac = new AbortController();
    this.inflight.add(ac);
    const timer = setTimeout(() => ac.abort(), this.config.timeoutMs);
    timer.unref();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': 'Portal-Sandbox-Webhooks/1',
        ...webhookHeaders({ secret: this.config.secret, id: d.id, timestamp: new Date(), body: d.body }),
      };
      const res = await fetch(url, { method: 'POST', headers, body: d.body, redirect: 'manual', signal: ac.signal });
      status = res.status;
      await res.body?.cancel().catch(() => undefined);
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (e) {
      error = describe(e);
    } finally {
      clearTimeout(timer);
      this.inflight.delete(ac);
    }
    if (generation !== this.generation) return;
    d.last_status = status;
    d.last_error = error;
    if (error === null) {
      d.status = 'delivered';
      d.delivered_at = new Date().toISOString();
    } else if (d.attempts >= this.config.maxAttempts) {
      d.status = 'failed';
    } else {
      this.schedule(d);
    }
  }
}
