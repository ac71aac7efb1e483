// Benchmark of the answer history (DESIGN §9). Two parts:
//  1. Reads of a big history: one application with 100,000 recorded changes (1,000 fields × 100 changes),
//     on the embedded database (PGlite, in memory) and on PostgreSQL (TEST_DATABASE_URL, else a throwaway
//     cluster): one field's history (its newest 50) and the application's first page (newest 50), p50/p95
//     over BENCH_HISTORY_READS calls each. Baseline: the same query's plan-free floor, `SELECT 1`, in the same run.
//  2. What recording costs an answer write: bench:bff's write scenario through the production BFF at one
//     connection, interleaved between a BFF recording history and one started with HISTORY_RETENTION_DAYS=0
//     (the baseline, recording nothing), both on the embedded database.
// Prints tables, then one JSON line with `met`.
//
//   BENCH_SECONDS (10)              length of each write scenario
//   BENCH_SLICES (5)                turns per write scenario, taken in rotation with its peer
//   BENCH_HISTORY_READS (300)       calls per read figure
//   BENCH_DATABASES (embedded,postgres)
//   TEST_DATABASE_URL               PostgreSQL server to use (a schema of its own) instead of a throwaway cluster
import { performance } from 'node:perf_hooks';
import { createDb } from '@/server/db';
import type { Db } from '@/server/db/types';
import { buildIfStale } from '@/server/launcher/build';
import { applicationHistory, fieldHistory } from '@/server/history/history-store';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { benchPostgres } from './lib/bench-postgres';
import { printResults, runInterleaved, warmUp } from './lib/load';
import { bffWriteLoad, prepareWriteTargets } from './lib/scenarios';
import { spawnSandbox } from './lib/spawn-sandbox';
import { startBff } from './lib/start-bff';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const slices = Number(process.env.BENCH_SLICES ?? 5);
const reads = Number(process.env.BENCH_HISTORY_READS ?? 300);
const databases = (process.env.BENCH_DATABASES ?? 'embedded,postgres').split(',') as Array<'embedded' | 'postgres'>;
const apiKey = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;

const FIELDS = 1_000;
const CHANGES_PER_FIELD = 100;
const APP = 'ciappl_bench_history';
const TARGET_FIELD_P95_MS = 20;
const TARGET_TIMELINE_P95_MS = 50;
const TARGET_WRITE_ADDED_P50_MS = 0.3;

const round = (n: number) => Math.round(n * 100) / 100;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function timed(fn: () => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < reads; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: round(percentile(ms, 50)), p95: round(percentile(ms, 95)) };
}

/** 100,000 changes of one application (and a few of another, so the indexes have something to skip). */
async function fill(db: Db) {
  await db.query(
    `INSERT INTO answer_history (application_id, schema_key, field_key, item_id, old_value, old_known, new_value, revision, actor_kind, actor_name, at)
     SELECT $1, 'question_' || f, 'value', '', to_jsonb('value ' || (c - 1)), true, to_jsonb('value ' || c), f * $3 + c, 'staff', 'Sam Staff',
            now() - make_interval(secs => ($2 * $3 - (f * $3 + c)))
       FROM generate_series(1, $2::int) AS f, generate_series(1, $3::int) AS c`,
    [APP, FIELDS, CHANGES_PER_FIELD],
  );
  await db.query(
    `INSERT INTO answer_history (application_id, schema_key, field_key, item_id, old_value, old_known, new_value, revision, actor_kind, actor_name)
     SELECT 'ciappl_other_' || a, 'question_1', 'value', '', 'null', true, '"x"', a, 'client', NULL FROM generate_series(1, 1000) AS a`,
  );
  await db.query('ANALYZE answer_history');
}

async function readFigures(db: Db) {
  await fill(db);
  const floor = await timed(() => db.query('SELECT 1'));
  let n = 0;
  const field = await timed(() => fieldHistory(db, APP, { schema_key: `question_${(n++ % FIELDS) + 1}`, field_key: 'value', item_id: null }, 50, null));
  const timeline = await timed(() => applicationHistory(db, APP, 50, null));
  return { floor, field, timeline };
}

async function main() {
  buildIfStale();
  const readResults: Record<string, Awaited<ReturnType<typeof readFigures>>> = {};
  const met: Record<string, boolean> = {};
  for (const database of databases) {
    let db: Db;
    const postgres = benchPostgres('bench_history');
    if (database === 'embedded') db = await createDb({ dataDir: null });
    else db = await createDb({ url: await postgres.schema('reads') });
    try {
      readResults[database] = await readFigures(db);
    } finally {
      await db.close();
      await postgres.close();
    }
    const r = readResults[database];
    console.log(`\n${database}: ${FIELDS * CHANGES_PER_FIELD} changes of one application, ${reads} calls each`);
    console.log('query | p50 ms | p95 ms | target p95');
    console.log(`SELECT 1 (baseline) | ${r.floor.p50} | ${r.floor.p95} | -`);
    console.log(`one field's history (50) | ${r.field.p50} | ${r.field.p95} | ≤ ${TARGET_FIELD_P95_MS}  (${round(r.field.p95 / Math.max(r.floor.p95, 0.01))}x the baseline)`);
    console.log(`application timeline, first page (50) | ${r.timeline.p50} | ${r.timeline.p95} | ≤ ${TARGET_TIMELINE_P95_MS}  (${round(r.timeline.p95 / Math.max(r.floor.p95, 0.01))}x the baseline)`);
    met[`${database}.field_p95`] = r.field.p95 <= TARGET_FIELD_P95_MS;
    met[`${database}.timeline_p95`] = r.timeline.p95 <= TARGET_TIMELINE_P95_MS;
  }

  // What recording adds to a write: the same writes through a BFF with and without history, interleaved.
  const sandbox = await spawnSandbox();
  const bffs = await Promise.all([
    startBff({ portalBaseUrl: sandbox.baseUrl, portalApiKey: apiKey, env: { LOG_LEVEL: 'info', HISTORY_RETENTION_DAYS: '0' } }),
    startBff({ portalBaseUrl: sandbox.baseUrl, portalApiKey: apiKey, env: { LOG_LEVEL: 'info' } }),
  ]);
  let write: { off: number; on: number; added: number; rps_ratio: number };
  let failures = 0;
  try {
    const specs = await Promise.all(
      bffs.map(async (b, i) => bffWriteLoad(`BFF: PATCH answers, 1 conn, history ${i === 0 ? 'off (baseline)' : 'on'}`, await prepareWriteTargets(sandbox.baseUrl, apiKey, 1), b.url, b.cookie, seconds)),
    );
    for (const s of specs) await warmUp(s);
    const [off, on] = await runInterleaved(specs, slices);
    failures = off!.failures + on!.failures;
    printResults('Answer writes with and without history (embedded database, 1 connection)', [off!, { ...on!, baseline: off! }]);
    write = { off: round(off!.p50), on: round(on!.p50), added: round(on!.p50 - off!.p50), rps_ratio: round(on!.rps / off!.rps) };
    console.log(`p50 ${write.off} → ${write.on} ms: +${write.added} ms (target ≤ ${TARGET_WRITE_ADDED_P50_MS}); req/s ${write.rps_ratio}x the baseline`);
    met['write.added_p50'] = write.added <= TARGET_WRITE_ADDED_P50_MS;
  } finally {
    await Promise.all(bffs.map((b) => b.stop()));
    await sandbox.stop();
  }
  if (failures > 0) {
    console.error('Some writes failed: the figures above are not valid.');
    process.exitCode = 1;
  }
  console.log(JSON.stringify({ bench: 'history', changes: FIELDS * CHANGES_PER_FIELD, reads: readResults, write, failures, met }));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
