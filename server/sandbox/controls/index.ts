import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { bodyError, type Reply } from '../http/context';
import { SandboxError } from '../http/errors';
import type { Sandbox } from '../sandbox';
import type { WebhookDeliverer } from '../webhooks';
import { FaultInjector, FaultsBody, type FaultDecision } from './faults';
import { FundersBody, MatchingBody, fundersView, setGeneratedFunders, setMatching } from '../funding/controls';
import { forgetProjectTimings, matchTimingsView } from '../funding/state';
import { GenerateBusinessesBody, generateBusinesses } from './generate-businesses';

/** Where the test controls live; outside /v1/, no API key, only when options.controls is on. */
export const CONTROLS_PREFIX = '/_sandbox/';

const ClockBody = z.strictObject({ speed: z.number().positive().max(100_000) });
const WebhooksBody = z.strictObject({ paused: z.boolean() });

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The sandbox's test controls (DESIGN.md §5, "Sandbox extras"): fault injection, the clock, reset and the webhook
 * delivery log. Paths (a trailing slash is optional):
 *
 *   GET    /_sandbox/controls            faults, clock speed, webhook configuration and deliveries
 *   GET    /_sandbox/faults              the current faults (null when none)
 *   PUT    /_sandbox/faults              set faults (FaultsBody), replacing the previous ones
 *   DELETE /_sandbox/faults              clear faults (204)
 *   GET    /_sandbox/clock               { speed }
 *   PUT    /_sandbox/clock               { speed }: simulated time runs `speed` times faster
 *   POST   /_sandbox/reset               state back to the seed; idempotency keys, rate-limit buckets,
 *                                        pending timers and the delivery log are cleared; faults and
 *                                        clock speed stay as they are
 *   GET    /_sandbox/webhook-deliveries  the delivery log, oldest first
 *   GET    /_sandbox/funders             { seeded, generated, seed, total }: the funders match runs screen
 *   PUT    /_sandbox/funders             { generate, seed? }: that many generated funders after the seeded ones
 *                                        (deterministic for a seed; 0 removes them; a reset does too)
 *   GET    /_sandbox/matching            match run durations: { run_queued_ms, funder_ms, projects: {id: …} }
 *   PUT    /_sandbox/matching            { run_queued_ms?, funder_ms?, project_id? }: sandbox clock ms a run waits
 *                                        queued and spends per funder; with project_id that project's runs only
 *                                        (a reset forgets those, and keeps the sandbox's own)
 *   PUT    /_sandbox/webhooks            { paused }: while paused, events are dropped (logged as `dropped`, never
 *                                        sent), as lost deliveries; a reset leaves the setting as it is
 *   POST   /_sandbox/businesses          { generate, seed? }: that many more businesses at once, each with a
 *                                        contact and an application, over the pipeline's stages; no events
 */
export class SandboxControls {
  readonly faults = new FaultInjector();

  constructor(
    private readonly sb: Sandbox,
    private readonly webhooks: WebhookDeliverer,
  ) {}

  reset() {
    this.sb.clock.cancelAll();
    this.sb.reset();
    this.sb.idempotency.clear();
    this.sb.limiter.clear();
    this.webhooks.reset();
    forgetProjectTimings(this.sb);
  }

  private overview() {
    return {
      object: 'sandbox_controls',
      faults: this.faults.view(),
      clock: { speed: this.sb.clock.getSpeed() },
      webhooks: { ...this.webhooks.describeConfig(), deliveries: this.webhooks.deliveries() },
    };
  }

  async handle(method: string, pathname: string, json: () => Promise<unknown>): Promise<Reply> {
    const path = pathname.slice(CONTROLS_PREFIX.length).replace(/\/$/, '');
    const parse = async <S extends z.ZodType>(schema: S): Promise<z.output<S>> => {
      const parsed = schema.safeParse(await json());
      if (!parsed.success) throw bodyError(parsed.error);
      return parsed.data;
    };
    const op = `${method} ${path}`;
    switch (op) {
      case 'GET ':
      case 'GET controls':
        return { status: 200, body: this.overview() };
      case 'GET faults':
        return { status: 200, body: { object: 'sandbox_faults', faults: this.faults.view() } };
      case 'PUT faults': {
        this.faults.set(await parse(FaultsBody));
        return { status: 200, body: { object: 'sandbox_faults', faults: this.faults.view() } };
      }
      case 'DELETE faults':
        this.faults.clear();
        return { status: 204, body: undefined };
      case 'GET clock':
        return { status: 200, body: { object: 'sandbox_clock', speed: this.sb.clock.getSpeed() } };
      case 'PUT clock': {
        const { speed } = await parse(ClockBody);
        this.sb.clock.setSpeed(speed);
        return { status: 200, body: { object: 'sandbox_clock', speed } };
      }
      case 'POST reset':
        this.reset();
        return { status: 200, body: { object: 'sandbox_reset', reset_at: this.sb.now() } };
      case 'GET webhook-deliveries':
        return { status: 200, body: { object: 'list', items: this.webhooks.deliveries() } };
      case 'GET funders':
        return { status: 200, body: fundersView(this.sb) };
      case 'PUT funders':
        return { status: 200, body: setGeneratedFunders(this.sb, await parse(FundersBody)) };
      case 'GET matching':
        return { status: 200, body: matchTimingsView(this.sb) };
      case 'PUT matching':
        return { status: 200, body: setMatching(this.sb, await parse(MatchingBody)) };
      case 'PUT webhooks': {
        this.webhooks.setPaused((await parse(WebhooksBody)).paused);
        return { status: 200, body: { object: 'sandbox_webhooks', ...this.webhooks.describeConfig() } };
      }
      case 'POST businesses':
        return { status: 201, body: generateBusinesses(this.sb, await parse(GenerateBusinessesBody)) };
      default: {
        const known = ['', 'controls', 'faults', 'clock', 'reset', 'webhook-deliveries', 'funders', 'matching', 'webhooks', 'businesses'].includes(path);
        throw new SandboxError('not_found', known ? `${method} is not supported on ${pathname}.` : `No sandbox control at ${pathname}.`);
      }
    }
  }

  /**
   * Applies an injected fault to a /v1/ request: waits the latency, then destroys the connection (null), answers
   * 429 rate_limited with Retry-After, or a 5xx with code internal_error. Undefined: go on and handle the request
   * (for drop_after the server then destroys the connection instead of replying).
   */
  async applyFault(decision: FaultDecision, req: IncomingMessage, requestId: string): Promise<Reply | null | undefined> {
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);
    const c = decision.config;
    switch (decision.outcome) {
      case 'drop':
        req.socket.destroy();
        return null;
      case '429':
        throw new SandboxError(
          'rate_limited',
          `Too many requests (injected fault); wait ${c.retry_after_seconds} s before retrying.`,
          [{ code: 'fault_injected', message: 'The sandbox test controls injected this 429.' }],
          { 'Retry-After': String(c.retry_after_seconds) },
        );
      case '5xx':
        return {
          status: c.status_5xx,
          body: {
            error: {
              code: 'internal_error',
              message: 'The sandbox is temporarily unavailable (injected fault).',
              request_id: requestId,
              details: [{ code: 'fault_injected', message: `The sandbox test controls injected this ${c.status_5xx}.` }],
            },
          },
        };
      default:
        return undefined;
    }
  }
}
