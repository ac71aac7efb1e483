import 'server-only';
import { SpanKind, type Span } from '@opentelemetry/api';
import { recordJob } from './metrics';
import { inSpan } from './tracing';

/**
 * Works one queue job inside its own span (`job <queue>`, a consumer span: a job starts a trace of its own, as
 * no request is waiting for it) and counts it by outcome with its duration. A job that throws is marked failed
 * and rethrown, for the queue to retry or give up as its policy says.
 */
export async function observedJob<T>(queue: string, jobId: string, work: (span: Span | null) => Promise<T>): Promise<T> {
  const started = performance.now();
  let outcome: 'completed' | 'failed' = 'failed';
  try {
    const result = await inSpan(`job ${queue}`, SpanKind.CONSUMER, { 'messaging.system': 'pg-boss', 'messaging.destination.name': queue, 'messaging.message.id': jobId }, work);
    outcome = 'completed';
    return result;
  } finally {
    recordJob(queue, outcome, (performance.now() - started) / 1000);
  }
}
