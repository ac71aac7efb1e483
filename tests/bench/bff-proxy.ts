// Benchmark of the BFF's own cost: the same answers page read and answers write,
// DIRECT to the Portal sandbox, to the FLOOR (a bare route handler in the same Next server answering the
// same bytes with no session, database or upstream: /bench/floor, on with BENCH_FLOOR_ROUTE=1) and
// THROUGH the production BFF with everything a browser request meets there (session, role and
// per-object checks, CSRF, audit record of writes, upstream URL guard, logging). Once with the embedded
// database (PGlite) and once with PostgreSQL (TEST_DATABASE_URL, else a throwaway cluster), then the BFF
// on PostgreSQL with 2 app instances behind one port. Judged: BFF ÷ floor req/s at BENCH_CONNECTIONS,
// and the p50 the BFF adds at one connection over floor + direct. Also shown: the app server's CPU time per
// request, floor ÷ BFF, which a shared, noisy machine moves less than req/s. Prints tables, then one JSON line.
//
//   BENCH_SECONDS (10), BENCH_CONNECTIONS (16)   the load, the same for every scenario
//   TEST_DATABASE_URL                            PostgreSQL server to use (a schema of its own) instead of a throwaway cluster
//   BENCH_DATABASES (embedded,postgres)          which databases to run
//   BENCH_SLICES (5)                             turns per scenario, taken in rotation with its peers (load drift cancels out)
//   BENCH_BFF_LOG_LEVEL (info)                   the BFF's LOG_LEVEL (info: one line per upstream call, as in production)
//   BENCH_CPU_PROF=<dir>                         writes a V8 CPU profile of the Next server there (lib/cpu-profile-preload.cjs)
import { join } from 'node:path';
import { buildIfStale } from '@/server/launcher/build';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { findPostgresBinDir, startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';
import { printResults, runInterleaved, warmUp, type LoadResult, type LoadSpec } from './lib/load';
import { bffWriteLoad, floorWriteLoad, prepareWriteTargets, readLoad, writeLoad } from './lib/scenarios';
import { processGroupCpuMs } from './lib/process-cpu';
import { spawnSandbox } from './lib/spawn-sandbox';
import { startBff, type BenchBff } from './lib/start-bff';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** Turns each scenario's time is cut into, taken in rotation with its peers (BENCH_SLICES). */
const slices = Number(process.env.BENCH_SLICES ?? 5);
const databases = (process.env.BENCH_DATABASES ?? 'embedded,postgres').split(',') as Array<'embedded' | 'postgres'>;
const apiKey = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;
const READ_APP = 'ciappl_meridian';

/** The targets: at least 0.7x the floor's req/s under load, at most 1.0 ms added p50 unloaded. */
const TARGET_FLOOR_RATIO = 0.7;
const TARGET_ADDED_P50_MS = 1.0;

interface Trio {
  direct: LoadResult;
  floor: LoadResult;
  bff: LoadResult;
}
interface Pass {
  read: Trio;
  write: Trio;
}

const readPath = (origin: string) => `${origin}/api/applications/${READ_APP}/answers?page_size=100`;

/** Direct, floor and BFF of one operation, warmed up, then measured interleaved (runInterleaved). */
async function trio(specs: [LoadSpec, LoadSpec, LoadSpec]): Promise<Trio> {
  for (const spec of specs) await warmUp(spec);
  const [direct, floor, bff] = await runInterleaved(specs, slices);
  return { direct: direct!, floor: floor!, bff: bff! };
}

/** A scenario served by the Next server, with its CPU time read around each turn. */
const onServer = (bff: BenchBff, spec: LoadSpec): LoadSpec => ({ ...spec, serverCpuMs: () => (bff.pid ? processGroupCpuMs(bff.pid) : null) });

/** The six scenarios at one concurrency; each write scenario gets its own fresh applications. */
async function pass(sandboxBaseUrl: string, bff: BenchBff, conns: number): Promise<Pass> {
  const auth = { Authorization: `Bearer ${apiKey}` };
  const tag = `${conns} conn`;
  const cookie = { Cookie: bff.cookie };
  const read = await trio([
    readLoad(`direct: GET answers (${tag})`, `${sandboxBaseUrl}client-intake-applications/${READ_APP}/answers/?page_size=100`, auth, conns, seconds),
    onServer(bff, readLoad(`floor: GET (${tag})`, `${bff.url}/bench/floor`, cookie, conns, seconds)),
    onServer(bff, readLoad(`BFF: GET answers (${tag})`, readPath(bff.url), cookie, conns, seconds)),
  ]);
  const targets = () => prepareWriteTargets(sandboxBaseUrl, apiKey, conns);
  const write = await trio([
    writeLoad(`direct: PATCH answers (${tag})`, await targets(), auth, seconds),
    onServer(bff, floorWriteLoad(`floor: PATCH (${tag})`, await targets(), bff.url, bff.cookie, seconds)),
    onServer(bff, bffWriteLoad(`BFF: PATCH answers (${tag})`, await targets(), bff.url, bff.cookie, seconds)),
  ]);
  return { read, write };
}

/** The floor answers exactly the bytes the BFF answers: one real read and one real write, stored in the floor route. */
async function primeFloor(sandboxBaseUrl: string, bff: BenchBff) {
  const put = async (as: 'read' | 'write', body: string) => {
    const res = await fetch(`${bff.url}/bench/floor?as=${as}`, { method: 'PUT', body });
    if (res.status !== 204) throw new Error(`floor route refused (${res.status}): was the server started with BENCH_FLOOR_ROUTE=1?`);
  };
  const read = await fetch(readPath(bff.url), { headers: { Cookie: bff.cookie } });
  await put('read', await read.text());
  const [t] = await prepareWriteTargets(sandboxBaseUrl, apiKey, 1);
  const spec = bffWriteLoad('prime', [t!], bff.url, bff.cookie, 1);
  const r = spec.next(0);
  const write = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
  if (write.status !== 200) throw new Error(`BFF write → ${write.status}`);
  await put('write', await write.text());
}

interface Figures {
  floor_rps: number;
  bff_rps: number;
  bff_over_floor: number;
  p50_1conn_ms: { direct: number; floor: number; bff: number; added: number };
  /**
   * The app server's CPU time per request under load, and floor ÷ BFF: on a shared, noisy machine this moves
   * less than req/s, and on a quiet one it is what bounds BFF ÷ floor. Null off Linux. Not a target, a witness.
   */
  cpu_ms_per_request: { floor: number; bff: number; floor_over_bff: number } | null;
}

function figures(loaded: Trio, single: Trio): Figures {
  return {
    floor_rps: Math.round(loaded.floor.rps),
    bff_rps: Math.round(loaded.bff.rps),
    bff_over_floor: round(loaded.bff.rps / loaded.floor.rps),
    p50_1conn_ms: {
      direct: round(single.direct.p50),
      floor: round(single.floor.p50),
      bff: round(single.bff.p50),
      added: round(single.bff.p50 - single.floor.p50 - single.direct.p50),
    },
    cpu_ms_per_request:
      loaded.floor.cpuPerRequestMs && loaded.bff.cpuPerRequestMs
        ? {
            floor: round(loaded.floor.cpuPerRequestMs),
            bff: round(loaded.bff.cpuPerRequestMs),
            floor_over_bff: round(loaded.floor.cpuPerRequestMs / loaded.bff.cpuPerRequestMs),
          }
        : null,
  };
}

const round = (n: number) => Math.round(n * 100) / 100;
const rowsOf = (t: Trio) => [t.direct, t.floor, { ...t.bff, baseline: t.floor }];
const failuresIn = (p: Pass) => [p.read, p.write].flatMap((t) => [t.direct, t.floor, t.bff]).reduce((n, r) => n + r.failures, 0);

async function main() {
  buildIfStale();
  const sandbox = await spawnSandbox();
  let cluster: PostgresCluster | null = null;
  const profileDir = process.env.BENCH_CPU_PROF;
  const env = {
    LOG_LEVEL: process.env.BENCH_BFF_LOG_LEVEL ?? 'info',
    BENCH_FLOOR_ROUTE: '1',
    // BENCH_OBSERVABILITY=on: metrics recorded and spans made (no exporter), to compare with a run without.
    ...(process.env.BENCH_OBSERVABILITY === 'on' ? { METRICS_TOKEN: 'bench-metrics-token-0123456789', TRACING: 'on' } : { TRACING: 'off' }),
    // Node refuses --cpu-prof in NODE_OPTIONS; a preloaded script starts the profiler instead.
    ...(profileDir ? { NODE_OPTIONS: `--require ${join(__dirname, 'lib', 'cpu-profile-preload.cjs')}`, BENCH_CPU_PROF: profileDir } : {}),
  };
  const results: Record<string, { read: Figures; write: Figures }> = {};
  const met: Record<string, boolean> = {};
  let failures = 0;
  let scaling: Record<'read' | 'write', { one: number; two: number; ratio: number }> | null = null;
  try {
    let postgresUrl = process.env.TEST_DATABASE_URL || null;
    if (databases.includes('postgres') && !postgresUrl) {
      const bin = findPostgresBinDir();
      if (!bin) throw new Error('PostgreSQL binaries not found: set TEST_DATABASE_URL or BENCH_DATABASES=embedded');
      cluster = await startPostgresCluster(bin);
      postgresUrl = cluster.url;
    }
    console.log(`Sandbox at ${sandbox.baseUrl}; ${connections} connections, ${seconds} s per scenario`);
    // The 1-instance PostgreSQL BFF stays up for the scaling run, measured interleaved with the 2-instance one.
    let postgresOne: BenchBff | null = null;
    for (const database of databases) {
      const bff = await startBff({ portalBaseUrl: sandbox.baseUrl, portalApiKey: apiKey, postgresUrl: database === 'postgres' ? postgresUrl : null, env });
      try {
        console.log(`\nBFF at ${bff.url} (database: ${bff.database})`);
        await primeFloor(sandbox.baseUrl, bff);
        const loaded = await pass(sandbox.baseUrl, bff, connections);
        // One connection: no queueing, so the added p50 is the BFF's own cost per request.
        const single = await pass(sandbox.baseUrl, bff, 1);
        failures += failuresIn(loaded) + failuresIn(single);
        printResults(`${bff.database}: under load (${connections} connections; BFF compared with the floor)`, [...rowsOf(loaded.read), ...rowsOf(loaded.write)]);
        printResults(`${bff.database}: unloaded (1 connection)`, [...rowsOf(single.read), ...rowsOf(single.write)]);
        results[database] = { read: figures(loaded.read, single.read), write: figures(loaded.write, single.write) };
        for (const op of ['read', 'write'] as const) {
          const f = results[database][op];
          met[`${database}.${op}.bff_over_floor`] = f.bff_over_floor >= TARGET_FLOOR_RATIO;
          met[`${database}.${op}.added_p50_1conn`] = f.p50_1conn_ms.added <= TARGET_ADDED_P50_MS;
        }
      } finally {
        if (database === 'postgres') postgresOne = bff;
        else await bff.stop();
      }
    }

    if (postgresOne) {
      // The same BFF with 2 instances behind its port, side by side with the 1-instance one: what the second core adds.
      const one = postgresOne;
      try {
        const two = await startBff({ portalBaseUrl: sandbox.baseUrl, portalApiKey: apiKey, postgresUrl, env, instances: 2 });
        try {
          const tag = (n: number) => `${connections} conn, ${n} instance${n > 1 ? 's' : ''}`;
          const reads = [one, two].map((b, i) => readLoad(`BFF: GET answers (${tag(i + 1)})`, readPath(b.url), { Cookie: b.cookie }, connections, seconds));
          const writes = await Promise.all(
            [one, two].map(async (b, i) => bffWriteLoad(`BFF: PATCH answers (${tag(i + 1)})`, await prepareWriteTargets(sandbox.baseUrl, apiKey, connections), b.url, b.cookie, seconds)),
          );
          for (const spec of [...reads, ...writes]) await warmUp(spec);
          const [read1, read2] = await runInterleaved(reads, slices);
          const [write1, write2] = await runInterleaved(writes, slices);
          failures += [read1!, read2!, write1!, write2!].reduce((n, r) => n + r.failures, 0);
          printResults('PostgreSQL: 1 → 2 app instances', [read1!, { ...read2!, baseline: read1! }, write1!, { ...write2!, baseline: write1! }]);
          const s = (a: LoadResult, b: LoadResult) => ({ one: Math.round(a.rps), two: Math.round(b.rps), ratio: round(b.rps / a.rps) });
          scaling = { read: s(read1!, read2!), write: s(write1!, write2!) };
        } finally {
          await two.stop();
        }
      } finally {
        await one.stop();
      }
    }

    console.log(`\nTargets: BFF ≥ ${TARGET_FLOOR_RATIO}x the floor's req/s at ${connections} connections; ≤ ${TARGET_ADDED_P50_MS} ms p50 added at 1 connection over floor + direct`);
    console.log(['database', 'op', 'floor req/s', 'BFF req/s', 'BFF ÷ floor', 'p50 1 conn: direct + floor → BFF', 'added', 'met', 'CPU/req floor → BFF (÷)'].join(' | '));
    for (const [database, r] of Object.entries(results)) {
      for (const op of ['read', 'write'] as const) {
        const f = r[op];
        const ok = met[`${database}.${op}.bff_over_floor`] && met[`${database}.${op}.added_p50_1conn`];
        console.log(
          [
            database,
            op,
            f.floor_rps,
            f.bff_rps,
            `${f.bff_over_floor.toFixed(2)}x`,
            `${f.p50_1conn_ms.direct} + ${f.p50_1conn_ms.floor} → ${f.p50_1conn_ms.bff} ms`,
            `${f.p50_1conn_ms.added} ms`,
            ok ? 'yes' : 'NO',
            f.cpu_ms_per_request ? `${f.cpu_ms_per_request.floor} → ${f.cpu_ms_per_request.bff} ms (${f.cpu_ms_per_request.floor_over_bff}x)` : '-',
          ].join(' | '),
        );
      }
    }
    if (scaling) console.log(`Scaling on PostgreSQL, 1 → 2 instances: read ${scaling.read.ratio}x, write ${scaling.write.ratio}x`);
    if (failures > 0) {
      console.error('Some requests failed: the figures above are not valid.');
      process.exitCode = 1;
    }
    console.log(JSON.stringify({ bench: 'bff', connections, seconds, databases: results, scaling, failures, met }));
  } finally {
    await sandbox.stop();
    cluster?.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
