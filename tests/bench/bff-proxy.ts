// Benchmark of the BFF's proxy overhead (issue requirement): the same answers page read and answers write,
// once DIRECT to the Portal sandbox and once THROUGH the production BFF (`next start`) with everything a
// browser request meets there on (session lookup, role and per-object checks, CSRF, audit record of
// writes, upstream URL guard, logging). One run starts the sandbox and the BFF in their own processes;
// the closed-loop load generator runs here. Run: npx tsx tests/bench/bff-proxy.ts (suggested script: bench:bff)
//
//   BENCH_SECONDS (10), BENCH_CONNECTIONS (16)   the load, the same for direct and BFF
//   TEST_DATABASE_URL                            BFF state on PostgreSQL (a schema of its own) instead of embedded PGlite
//   BENCH_BFF_LOG_LEVEL (info)                   the BFF's LOG_LEVEL (info: one line per upstream call, as in production)
//   BENCH_CPU_PROF=<dir>                         writes a V8 CPU profile of the Next server there (lib/cpu-profile-preload.cjs)
import { join } from 'node:path';
import { buildIfStale } from '@/server/launcher/build';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { printResults, runLoad, warmUp, type LoadResult, type LoadSpec } from './lib/load';
import { bffWriteLoad, prepareWriteTargets, readLoad, writeLoad } from './lib/scenarios';
import { spawnSandbox } from './lib/spawn-sandbox';
import { startBff } from './lib/start-bff';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const apiKey = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;
const READ_APP = 'ciappl_meridian';

/** The issue's targets: the BFF keeps at least half the direct throughput and adds under 3 ms at p50. */
const TARGET_RPS_RATIO = 0.5;
const TARGET_ADDED_P50_MS = 3;

async function measure(spec: LoadSpec): Promise<LoadResult> {
  await warmUp(spec);
  return runLoad(spec);
}

/** Throughput is judged under load; the added p50 under load and unloaded (where it is the BFF's own cost). */
function verdict(label: string, direct: LoadResult, bff: LoadResult, judgeThroughput: boolean): boolean {
  const ratio = bff.rps / direct.rps;
  const added = bff.p50 - direct.p50;
  const rpsOk = !judgeThroughput || ratio >= TARGET_RPS_RATIO;
  const p50Ok = added < TARGET_ADDED_P50_MS;
  console.log(
    `${label.padEnd(16)} throughput ${ratio.toFixed(2)}x direct${judgeThroughput ? ` (target ≥ ${TARGET_RPS_RATIO}x) ${rpsOk ? 'met' : 'MISSED'}` : ''}; ` +
      `p50 ${direct.p50.toFixed(2)} → ${bff.p50.toFixed(2)} ms = +${added.toFixed(2)} ms (target < ${TARGET_ADDED_P50_MS} ms) ${p50Ok ? 'met' : 'MISSED'}; ` +
      `p99 ${direct.p99.toFixed(2)} → ${bff.p99.toFixed(2)} ms (${(bff.p99 / direct.p99).toFixed(2)}x)`,
  );
  return rpsOk && p50Ok;
}

interface Pass {
  directRead: LoadResult;
  bffRead: LoadResult;
  directWrite: LoadResult;
  bffWrite: LoadResult;
}

/** The four scenarios at one concurrency; each write scenario gets its own fresh applications. */
async function pass(sandboxBaseUrl: string, bff: { url: string; cookie: string }, conns: number): Promise<Pass> {
  const auth = { Authorization: `Bearer ${apiKey}` };
  const tag = `${conns} conn`;
  const directRead = await measure(
    readLoad(`direct: GET answers (${tag})`, `${sandboxBaseUrl}client-intake-applications/${READ_APP}/answers/?page_size=100`, auth, conns, seconds),
  );
  const bffRead = await measure(
    readLoad(`BFF: GET answers (${tag})`, `${bff.url}/api/applications/${READ_APP}/answers?page_size=100`, { Cookie: bff.cookie }, conns, seconds),
  );
  const directWrite = await measure(writeLoad(`direct: PATCH answers (${tag})`, await prepareWriteTargets(sandboxBaseUrl, apiKey, conns), auth, seconds));
  const bffWrite = await measure(
    bffWriteLoad(`BFF: PATCH answers (${tag})`, await prepareWriteTargets(sandboxBaseUrl, apiKey, conns), bff.url, bff.cookie, seconds),
  );
  return { directRead, bffRead, directWrite, bffWrite };
}

const rowsOf = (p: Pass) => [p.directRead, { ...p.bffRead, baseline: p.directRead }, p.directWrite, { ...p.bffWrite, baseline: p.directWrite }];
const failuresIn = (p: Pass) => [p.directRead, p.bffRead, p.directWrite, p.bffWrite].reduce((n, r) => n + r.failures, 0);

async function main() {
  buildIfStale();
  const sandbox = await spawnSandbox();
  const profileDir = process.env.BENCH_CPU_PROF;
  const bff = await startBff({
    portalBaseUrl: sandbox.baseUrl,
    portalApiKey: apiKey,
    postgresUrl: process.env.TEST_DATABASE_URL || null,
    env: {
      LOG_LEVEL: process.env.BENCH_BFF_LOG_LEVEL ?? 'info',
      // Node refuses --cpu-prof in NODE_OPTIONS; a preloaded script starts the profiler instead.
      ...(profileDir ? { NODE_OPTIONS: `--require ${join(__dirname, 'lib', 'cpu-profile-preload.cjs')}`, BENCH_CPU_PROF: profileDir } : {}),
    },
  }).catch(async (e: unknown) => {
    await sandbox.stop();
    throw e;
  });
  try {
    console.log(`Sandbox at ${sandbox.baseUrl}; BFF at ${bff.url} (database: ${bff.database}); ${connections} connections, ${seconds} s per scenario`);
    const loaded = await pass(sandbox.baseUrl, bff, connections);
    // One connection: no queueing, so the added p50 is the BFF's own cost per request.
    const single = await pass(sandbox.baseUrl, bff, 1);

    printResults(`BFF proxy overhead under load (${connections} connections; direct = Portal sandbox alone)`, rowsOf(loaded));
    printResults('BFF proxy overhead unloaded (1 connection)', rowsOf(single));
    console.log(`\nTargets: BFF ≥ ${TARGET_RPS_RATIO}x direct throughput, < ${TARGET_ADDED_P50_MS} ms added p50`);
    const ok = [
      verdict(`read, ${connections} conn`, loaded.directRead, loaded.bffRead, true),
      verdict(`write, ${connections} conn`, loaded.directWrite, loaded.bffWrite, true),
      verdict('read, 1 conn', single.directRead, single.bffRead, false),
      verdict('write, 1 conn', single.directWrite, single.bffWrite, false),
    ].every(Boolean);
    if (failuresIn(loaded) + failuresIn(single) > 0) {
      console.error('Some requests failed: the figures above are not valid.');
      process.exitCode = 1;
    } else if (!ok) {
      console.log('The BFF misses a target (see above).');
    }
  } finally {
    await bff.stop();
    await sandbox.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
