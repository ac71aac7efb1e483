import { Agent, request } from 'node:http';

/** One request of a benchmark; `worker` is the index of the connection it runs on. */
export interface BenchRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadSpec {
  name: string;
  connections: number;
  durationSeconds: number;
  /** Builds each worker's next request; writes use it to carry their revision forward. */
  next(worker: number): BenchRequest;
  /** Sees each reply, e.g. to keep the ETag of the worker's resource. */
  onReply?(worker: number, status: number, headers: Record<string, string | string[] | undefined>, body: string): void;
  /** The server's CPU time so far (ms), to report CPU per request; null when it cannot be read. */
  serverCpuMs?(): number | null;
}

export interface LoadResult {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  failures: number;
  /** The first few failures (status and the start of the body, or the error), to tell why. */
  failureSamples: string[];
  /** The server's CPU time per request (ms), when the spec can read it. */
  cpuPerRequestMs: number | null;
}

function send(agent: Agent, r: BenchRequest) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request(r.url, { method: r.method, headers: r.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** What one run saw, before it is summarised (runs of one scenario can be added up). */
interface RawRun {
  latencies: number[];
  seconds: number;
  failures: number;
  samples: string[];
  /** The server's CPU time over the run (ms), null when unknown. */
  cpuMs: number | null;
}

/**
 * A closed-loop HTTP load generator: `connections` keep-alive workers each send their next request as
 * soon as the previous reply arrives, for `durationSeconds`. Latency is measured per request.
 */
async function runRaw(spec: LoadSpec, durationSeconds = spec.durationSeconds): Promise<RawRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const latencies: number[] = [];
  let failures = 0;
  const samples: string[] = [];
  const failed = (what: string) => {
    failures++;
    if (samples.length < 3) samples.push(what);
  };
  const cpuBefore = spec.serverCpuMs?.() ?? null;
  const end = performance.now() + durationSeconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: spec.connections }, async (_, worker) => {
      while (performance.now() < end) {
        const r = spec.next(worker);
        const t0 = performance.now();
        try {
          const reply = await send(agent, r);
          latencies.push(performance.now() - t0);
          if (reply.status < 200 || reply.status >= 300) failed(`${r.method} ${reply.status} ${reply.body.slice(0, 200)}`);
          spec.onReply?.(worker, reply.status, reply.headers, reply.body);
        } catch (e) {
          failed(`${r.method} ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const cpuAfter = cpuBefore === null ? null : (spec.serverCpuMs?.() ?? null);
  return { latencies, seconds, failures, samples, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

function summarise(name: string, runs: RawRun[]): LoadResult {
  const latencies = runs.flatMap((r) => r.latencies);
  const seconds = runs.reduce((t, r) => t + r.seconds, 0);
  const sorted = Float64Array.from(latencies).sort();
  return {
    name,
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    failures: runs.reduce((n, r) => n + r.failures, 0),
    failureSamples: runs.flatMap((r) => r.samples).slice(0, 3),
    cpuPerRequestMs: runs.every((r) => r.cpuMs !== null) && latencies.length > 0 ? runs.reduce((t, r) => t + r.cpuMs!, 0) / latencies.length : null,
  };
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return summarise(spec.name, [await runRaw(spec)]);
}

/**
 * Several scenarios side by side on a machine whose load drifts: each runs its durationSeconds in `slices`
 * turns, taken in rotation, so every scenario sees the same mix of quiet and busy moments and their ratios
 * stay meaningful when the absolute figures do not.
 */
export async function runInterleaved(specs: LoadSpec[], slices: number): Promise<LoadResult[]> {
  const runs: RawRun[][] = specs.map(() => []);
  for (let i = 0; i < slices; i++) {
    for (const [k, spec] of specs.entries()) runs[k]!.push(await runRaw(spec, spec.durationSeconds / slices));
  }
  return specs.map((spec, k) => summarise(spec.name, runs[k]!));
}

/** A short run first, so JIT warm-up and connection set-up do not count. */
export async function warmUp(spec: LoadSpec) {
  await runLoad({ ...spec, durationSeconds: Math.min(2, spec.durationSeconds) });
}

export function printResults(title: string, rows: Array<LoadResult & { baseline?: LoadResult }>) {
  console.log(`\n${title}`);
  const head = ['scenario'.padEnd(36), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p90 ms'.padStart(8), 'p99 ms'.padStart(8), 'failed'.padStart(7), 'CPU ms/req'.padStart(11), '  vs baseline'];
  console.log(head.join(' '));
  for (const r of rows) {
    const ratio = r.baseline
      ? `  ${(r.rps / r.baseline.rps).toFixed(2)}x req/s, p50 ${r.p50 - r.baseline.p50 >= 0 ? '+' : ''}${(r.p50 - r.baseline.p50).toFixed(2)} ms, p99 ${r.p99 - r.baseline.p99 >= 0 ? '+' : ''}${(r.p99 - r.baseline.p99).toFixed(2)} ms`
      : '  baseline (1.00x)';
    console.log(
      [r.name.padEnd(36), r.rps.toFixed(0).padStart(8), r.p50.toFixed(2).padStart(8), r.p90.toFixed(2).padStart(8), r.p99.toFixed(2).padStart(8), String(r.failures).padStart(7), (r.cpuPerRequestMs === null ? '-' : r.cpuPerRequestMs.toFixed(2)).padStart(11), ratio].join(' '),
    );
    for (const f of r.failureSamples) console.log(`    failed: ${f}`);
  }
}
