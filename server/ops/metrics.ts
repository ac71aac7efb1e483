import 'server-only';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { getEnv } from '@/server/env/get-env';
import { processWide } from '@/server/process-wide';

/*
 * The app's Prometheus metrics (prom-client), recorded only when METRICS_TOKEN is set: otherwise every record
 * call returns at once. Labels are bounded: routes by their template (/api/applications/[applicationId]), Portal
 * calls by their path with ids replaced, statuses as numbers — never a raw path, id or user.
 */

/** A scrape does not wait longer than this for a query-backed gauge (the database slow or away). */
const QUERY_GAUGE_BUDGET_MS = 1_000;

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function create() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    gauges: new Set<string>(),
    requests: new Counter({ name: 'bff_http_requests_total', help: 'API requests answered, by route template, method and status.', labelNames: ['route', 'method', 'status'], registers: [registry] }),
    requestSeconds: new Histogram({ name: 'bff_http_request_duration_seconds', help: 'Time to answer an API request (to the first byte of a stream).', labelNames: ['route', 'method'], buckets: DURATION_BUCKETS, registers: [registry] }),
    portalCalls: new Counter({ name: 'bff_portal_requests_total', help: 'Portal call attempts, by operation (path template), method and status (0: no reply).', labelNames: ['operation', 'method', 'status'], registers: [registry] }),
    portalSeconds: new Histogram({ name: 'bff_portal_request_duration_seconds', help: 'Time of one Portal call attempt.', labelNames: ['operation', 'method'], buckets: DURATION_BUCKETS, registers: [registry] }),
    portalRetries: new Counter({ name: 'bff_portal_retries_total', help: 'Portal call attempts that were repeats of a failed one.', labelNames: ['operation', 'method'], registers: [registry] }),
    webhooks: new Counter({ name: 'bff_webhooks_received_total', help: 'Portal webhook deliveries, by outcome (accepted, duplicate, refused).', labelNames: ['outcome'], registers: [registry] }),
    jobs: new Counter({ name: 'bff_jobs_total', help: 'Queue jobs worked by this instance, by queue and outcome (completed; failed: the queue retries it or gives up).', labelNames: ['queue', 'outcome'], registers: [registry] }),
    jobSeconds: new Histogram({ name: 'bff_job_duration_seconds', help: 'Time to work one queue job (a mail delivery: the SMTP exchange included).', labelNames: ['queue'], buckets: DURATION_BUCKETS, registers: [registry] }),
    mail: new Counter({ name: 'bff_mail_deliveries_total', help: 'Mail delivery attempts by this instance, by outcome (sent, retry: refused for now, failed: for good, not-queued: another worker had it).', labelNames: ['outcome'], registers: [registry] }),
  };
}

type Metrics = ReturnType<typeof create>;

/** The metrics, or null when they are off (no METRICS_TOKEN). */
export function metrics(): Metrics | null {
  return getEnv().metricsToken ? processWide('metrics', create) : null;
}

/** Registers the gauge bff_<name> once per process, its figure read by `collect` at every scrape; a no-op when metrics are off. */
function scrapedGauge(name: string, help: string, labelNames: readonly string[], collect: (this: Gauge) => void | Promise<void>): void {
  const m = metrics();
  if (!m || m.gauges.has(name)) return;
  m.gauges.add(name);
  new Gauge({ name: `bff_${name}`, help, labelNames: [...labelNames], registers: [m.registry], collect });
}

/**
 * Figures read at every scrape by one query (a table's rows by bounded labels), as the gauge bff_<name>: every
 * label set is read afresh, so one that is gone from the table is gone from the scrape. A failed or late read
 * (the database away) leaves the gauge empty for that scrape.
 */
export function addQueryGauge<L extends string>(name: string, help: string, labelNames: readonly L[], read: () => Promise<Array<{ labels: Record<L, string>; value: number }>>): void {
  scrapedGauge(name, help, labelNames, async function () {
    this.reset();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<[]>((resolve) => (timer = setTimeout(() => resolve([]), QUERY_GAUGE_BUDGET_MS)));
    const rows = await Promise.race([read().catch(() => []), late]).finally(() => clearTimeout(timer));
    for (const row of rows) this.set(row.labels, row.value);
  });
}

/** A figure read at every scrape (open streams, requests in flight, a queue's depth), as the gauge bff_<name>. */
export function addGauge(name: string, help: string, read: () => number): void {
  scrapedGauge(name, help, [], function () {
    this.set(read());
  });
}

const ID_SEGMENT = /^(?=.*\d)[A-Za-z0-9_-]{8,}$|^[a-z]+_[A-Za-z0-9]+$|^\d+$/;

/** A Portal path with its ids replaced (/v1/client-intake-applications/{id}/answers/): a bounded label. */
export function operationOf(path: string): string {
  return path
    .split('/')
    .map((segment) => (ID_SEGMENT.test(segment) ? '{id}' : segment))
    .join('/');
}

export function recordRequest(route: string, method: string, status: number, seconds: number): void {
  const m = metrics();
  if (!m) return;
  m.requests.inc({ route, method, status: String(status) });
  m.requestSeconds.observe({ route, method }, seconds);
}

export function recordPortalCall(path: string, method: string, status: number | null, ms: number, attempt: number): void {
  const m = metrics();
  if (!m) return;
  const operation = operationOf(path);
  m.portalCalls.inc({ operation, method, status: String(status ?? 0) });
  m.portalSeconds.observe({ operation, method }, ms / 1000);
  if (attempt > 1) m.portalRetries.inc({ operation, method });
}

export function recordWebhook(outcome: 'accepted' | 'duplicate' | 'refused'): void {
  metrics()?.webhooks.inc({ outcome });
}

export function recordJob(queue: string, outcome: 'completed' | 'failed', seconds: number): void {
  const m = metrics();
  if (!m) return;
  m.jobs.inc({ queue, outcome });
  m.jobSeconds.observe({ queue }, seconds);
}

export function recordMailDelivery(outcome: 'sent' | 'retry' | 'failed' | 'not-queued'): void {
  metrics()?.mail.inc({ outcome });
}
