import 'server-only';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Span, type TextMapGetter } from '@opentelemetry/api';
import { getEnv } from '@/server/env/get-env';
import { onDrain } from '@/server/lifecycle/drain';
import { log } from '@/server/log';
import { processWide } from '@/server/process-wide';

/*
 * OpenTelemetry traces: a span per API request, Portal call (its retries as events), database query and webhook
 * handled; `traceparent` goes with every Portal call and into the audit row. Recorded only when TRACING is on
 * (or an OTLP endpoint is configured); then exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set,
 * nowhere otherwise. Off, every helper here runs the work as it is.
 */

const state = () => processWide('tracing', () => ({ on: false, tracer: trace.getTracer('intake-bff') }));

export const tracingOn = (): boolean => state().on;

/** Sets up the SDK once per process (instrumentation.ts); a no-op when tracing is off. */
export async function startTracing(): Promise<void> {
  const env = getEnv();
  const s = state();
  if (!env.tracing || s.on) return;
  const { BatchSpanProcessor, TracerProvider } = await import('@opentelemetry/sdk-trace');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const spanProcessors = [];
  if (env.otlpEndpoint) {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    const url = new URL('v1/traces', env.otlpEndpoint.endsWith('/') ? env.otlpEndpoint : `${env.otlpEndpoint}/`).href;
    // In batches, every 5 s (the SDK's default) and at drain; the exporter reads its own OTEL_EXPORTER_OTLP_* settings.
    spanProcessors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) }));
  }
  const provider = new TracerProvider({ spanProcessors });
  // Not the global provider: with one registered, Next.js traces its own internals too (several spans and
  // context switches per request beside the request span made here), which cost about a fifth of a request's
  // CPU. The context (AsyncLocalStorage: a span stays current across awaits) and the W3C propagators are global.
  s.tracer = provider.getTracer('intake-bff');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  s.on = true;
  // Spans still queued leave before the process does.
  onDrain('tracing', () => provider.shutdown());
  log.info('tracing on', { exporter: env.otlpEndpoint ? 'otlp' : 'none' });
}

const headerGetter: TextMapGetter<Headers> = {
  get: (carrier, key) => carrier.get(key) ?? undefined,
  keys: (carrier) => [...carrier.keys()],
};

/**
 * Runs `work` inside a new active span (ended when it settles; an exception marks it failed). With `incoming`
 * (a request's headers) the span continues the caller's trace when they carry a `traceparent`.
 */
export function inSpan<T>(name: string, kind: SpanKind, attributes: Attributes, work: (span: Span | null) => Promise<T>, incoming?: Headers): Promise<T> {
  const s = state();
  if (!s.on) return work(null);
  const parent = incoming ? propagation.extract(ROOT_CONTEXT, incoming, headerGetter) : context.active();
  return s.tracer.startActiveSpan(name, { kind, attributes }, parent, async (span) => {
    try {
      return await work(span);
    } catch (e) {
      span.recordException(e instanceof Error ? e : String(e));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw e;
    } finally {
      span.end();
    }
  });
}

/** Adds the current trace's `traceparent` (and `tracestate`) to outgoing headers. */
export function injectTraceContext(headers: Headers): void {
  if (!state().on) return;
  propagation.inject(context.active(), headers, { set: (carrier, key, value) => carrier.set(key, value) });
}

/** The current span's `traceparent`, for the audit row; null when not tracing. */
export function currentTraceparent(): string | null {
  if (!state().on) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** Notes something that happened inside the current span (a Portal attempt that will be repeated). */
export function spanEvent(name: string, attributes: Attributes): void {
  if (state().on) trace.getActiveSpan()?.addEvent(name, attributes);
}

export { SpanKind };
