// What metrics and tracing cost, measured in one run: two production BFFs side by side on the same Portal sandbox,
// one with both on (METRICS_TOKEN set, TRACING=on: every span made, no exporter) and one with both off, the same
// answers read and write sent to each in rotation (runInterleaved), so the machine's drift falls on both alike.
// Judged: the BFF's req/s with them on falls by at most 5 % (BENCH_CONNECTIONS), and its p50 rises by at most
// 0.2 ms (1 connection). Then the Portal turns slow (the sandbox's latency fault, longer than the readiness
// check's own time budget) and /api/ready is probed: its p99 must stay within 50 ms, as the Portal check is
// cached and bounded. Prints tables, then one JSON line whose `met` says which targets held.
//
//   BENCH_SECONDS (10), BENCH_CONNECTIONS (16), BENCH_SLICES (5)   the load, as bench:bff takes them
//   BENCH_READY_SECONDS (15)                                       how long /api/ready is probed while the Portal is slow
import { buildIfStale } from '@/server/launcher/build';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { printResults, runInterleaved, runLoad, warmUp, type LoadResult, type LoadSpec } from './lib/load';
import { bffWriteLoad, prepareWriteTargets, readLoad } from './lib/scenarios';
import { spawnSandbox } from './lib/spawn-sandbox';
import { startBff, type BenchBff } from './lib/start-bff';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const slices = Number(process.env.BENCH_SLICES ?? 5);
const readySeconds = Number(process.env.BENCH_READY_SECONDS ?? 15);
const apiKey = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;
const READ_APP = 'ciappl_meridian';

/** The targets. */
const MAX_RPS_DROP = 0.05;
const MAX_P50_RISE_MS = 0.2;
const MAX_READY_P99_MS = 50;
/** The sandbox's added latency while the Portal is slow: beyond the readiness check's 2 s budget. */
const SLOW_PORTAL_MS = 5_000;

const round = (n: number) => Math.round(n * 100) / 100;
const readPath = (origin: string) => `${origin}/api/applications/${READ_APP}/answers?page_size=100`;

interface Pair {
  off: LoadResult;
  on: LoadResult;
}

async function pair(specs: [LoadSpec, LoadSpec]): Promise<Pair> {
  for (const spec of specs) await warmUp(spec);
  const [off, on] = await runInterleaved(specs, slices);
  return { off: off!, on: on! };
}

async function measure(sandboxBaseUrl: string, off: BenchBff, on: BenchBff, conns: number) {
  const tag = `${conns} conn`;
  const read = await pair([
    readLoad(`off: GET answers (${tag})`, readPath(off.url), { Cookie: off.cookie }, conns, seconds),
    readLoad(`on: GET answers (${tag})`, readPath(on.url), { Cookie: on.cookie }, conns, seconds),
  ]);
  const write = await pair([
    bffWriteLoad(`off: PATCH answers (${tag})`, await prepareWriteTargets(sandboxBaseUrl, apiKey, conns), off.url, off.cookie, seconds),
    bffWriteLoad(`on: PATCH answers (${tag})`, await prepareWriteTargets(sandboxBaseUrl, apiKey, conns), on.url, on.cookie, seconds),
  ]);
  return { read, write };
}

const rows = (p: Pair) => [p.off, { ...p.on, baseline: p.off }];

async function setFaults(sandboxBaseUrl: string, body: Record<string, unknown> | null) {
  const origin = new URL(sandboxBaseUrl).origin;
  const r = await fetch(`${origin}/_sandbox/faults`, { method: body ? 'PUT' : 'DELETE', headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  if (!r.ok) throw new Error(`sandbox faults → ${r.status}: ${await r.text()}`);
}

/** /api/ready probed back to back for BENCH_READY_SECONDS while every Portal call takes SLOW_PORTAL_MS. */
async function readyWhilePortalSlow(sandboxBaseUrl: string, bff: BenchBff) {
  await setFaults(sandboxBaseUrl, { latency_ms: SLOW_PORTAL_MS });
  try {
    const statuses = new Map<number, number>();
    const spec: LoadSpec = {
      ...readLoad('on: GET /api/ready (Portal slow)', `${bff.url}/api/ready`, {}, 1, readySeconds),
      onReply: (_w, status) => void statuses.set(status, (statuses.get(status) ?? 0) + 1),
    };
    const result = await runLoad(spec);
    // A 503 is a verdict (the Portal check failed), not a failed probe: what counts here is how fast it came.
    return { result: { ...result, failures: 0, failureSamples: [] }, statuses: Object.fromEntries(statuses) };
  } finally {
    await setFaults(sandboxBaseUrl, null);
  }
}

async function main() {
  buildIfStale();
  const sandbox = await spawnSandbox({ SANDBOX_CONTROLS: '1' });
  const common = { portalBaseUrl: sandbox.baseUrl, portalApiKey: apiKey };
  let off: BenchBff | null = null;
  let on: BenchBff | null = null;
  try {
    off = await startBff({ ...common, env: { LOG_LEVEL: 'info', TRACING: 'off' } });
    on = await startBff({ ...common, env: { LOG_LEVEL: 'info', TRACING: 'on', METRICS_TOKEN: 'bench-metrics-token-0123456789' } });
    console.log(`Sandbox at ${sandbox.baseUrl}; off at ${off.url}, on at ${on.url}; ${connections} connections, ${seconds} s per scenario in ${slices} turns`);
    const loaded = await measure(sandbox.baseUrl, off, on, connections);
    const single = await measure(sandbox.baseUrl, off, on, 1);
    printResults(`under load (${connections} connections; metrics and tracing on compared with off)`, [...rows(loaded.read), ...rows(loaded.write)]);
    printResults('unloaded (1 connection)', [...rows(single.read), ...rows(single.write)]);
    const ready = await readyWhilePortalSlow(sandbox.baseUrl, on);
    printResults(`/api/ready while every Portal call takes ${SLOW_PORTAL_MS} ms (replies: ${JSON.stringify(ready.statuses)})`, [ready.result]);

    const figures = Object.fromEntries(
      (['read', 'write'] as const).map((op) => {
        const l = loaded[op];
        const s = single[op];
        return [
          op,
          {
            rps: { off: Math.round(l.off.rps), on: Math.round(l.on.rps), on_over_off: round(l.on.rps / l.off.rps) },
            p50_1conn_ms: { off: round(s.off.p50), on: round(s.on.p50), rise: round(s.on.p50 - s.off.p50) },
          },
        ];
      }),
    ) as Record<'read' | 'write', { rps: { off: number; on: number; on_over_off: number }; p50_1conn_ms: { off: number; on: number; rise: number } }>;
    const met: Record<string, boolean> = {};
    for (const op of ['read', 'write'] as const) {
      met[`${op}.rps_drop`] = figures[op].rps.on_over_off >= 1 - MAX_RPS_DROP;
      met[`${op}.p50_rise`] = figures[op].p50_1conn_ms.rise <= MAX_P50_RISE_MS;
    }
    met['ready.p99_portal_slow'] = ready.result.p99 <= MAX_READY_P99_MS;
    const failures = [loaded, single].flatMap((m) => [m.read, m.write]).flatMap((p) => [p.off, p.on]).reduce((n, r) => n + r.failures, 0);

    console.log(`\nTargets: on ≥ ${1 - MAX_RPS_DROP}x off's req/s at ${connections} connections; p50 on − off ≤ ${MAX_P50_RISE_MS} ms at 1 connection; /api/ready p99 ≤ ${MAX_READY_P99_MS} ms with the Portal slow`);
    for (const op of ['read', 'write'] as const) {
      const f = figures[op];
      console.log(`${op}: req/s ${f.rps.off} → ${f.rps.on} (${f.rps.on_over_off}x) | p50 1 conn ${f.p50_1conn_ms.off} → ${f.p50_1conn_ms.on} ms (${f.p50_1conn_ms.rise >= 0 ? '+' : ''}${f.p50_1conn_ms.rise} ms)`);
    }
    console.log(`/api/ready with the Portal slow: p50 ${round(ready.result.p50)} ms, p99 ${round(ready.result.p99)} ms over ${ready.result.requests} probes`);
    if (failures > 0) {
      console.error('Some requests failed: the figures above are not valid.');
      process.exitCode = 1;
    }
    console.log(
      JSON.stringify({
        bench: 'observability',
        connections,
        seconds,
        slices,
        ...figures,
        ready_portal_slow_ms: { p50: round(ready.result.p50), p99: round(ready.result.p99), probes: ready.result.requests, statuses: ready.statuses },
        failures,
        met,
      }),
    );
  } finally {
    await on?.stop();
    await off?.stop();
    await sandbox.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
