import 'server-only';
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { recordJob } from './metrics';
import { inSpan } from './tracing';

export type JobOutcome = 'completed' | 'failed';

/**
 * Works one queue job inside its own span (`job <queue>`, a consumer span: a job starts a trace of its own, as
 * no request is waiting for it) and counts it by outcome with its duration. The work says how the job ended
 * (`failed`: handed back to the queue to retry or give up as its policy says); a job that throws failed too.
 */
export async function observedJob(queue: string, jobId: string, work: (span: Span | null) => Promise<JobOutcome>): Promise<JobOutcome> {
  const started = performance.now();
  let outcome: JobOutcome = 'failed';
  try {
    outcome = await inSpan(`job ${queue}`, SpanKind.CONSUMER, { 'messaging.system': 'pg-boss', 'messaging.destination.name': queue, 'messaging.message.id': jobId }, async (span) => {
      const ended = await work(span);
      if (ended === 'failed') span?.setStatus({ code: SpanStatusCode.ERROR });
      return ended;
    });
    return outcome;
  } finally {
    recordJob(queue, outcome, (performance.now() - started) / 1000);
  }
}
