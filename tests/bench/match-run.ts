// Benchmark of a funding match run in the sandbox: from POST match-runs/ to the run read back as completed, over
// the 30 seeded funders and over 1,000 generated ones (PUT /_sandbox/funders), with the sandbox clock at normal
// speed (the simulated duration: queued, then 20 ms per funder screened) and at the fastest speed the controls
// allow (then only the sandbox's own work is left). Also times reading the first page of matches.
// Run: npm run bench:match-run
//
//   BENCH_RUNS (3)        runs per scenario
//   BENCH_SLOW_RUNS (1)   runs of the 1,000-funder scenario at normal speed (each takes about 21 s)
//   BENCH_FUNDERS (1000)  generated funders
//
// Prints a table, then one line of JSON with every figure and whether each target was met. The BFF half
// ("time to first results on screen") is measured separately.
import os from 'node:os';
import { FundingMatchPage, MatchRun, Project, ProjectCriteria } from '@/lib/portal';
import { DEFAULT_MATCH_TIMING } from '@/server/sandbox/funding/state';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { spawnSandbox, type SpawnedSandbox } from './lib/spawn-sandbox';
import { BENCH_CRITERIA_ANSWERS } from './lib/criteria-answers';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SLOW_RUNS = Number(process.env.BENCH_SLOW_RUNS ?? 1);
const GENERATED = Number(process.env.BENCH_FUNDERS ?? 1000);
const FASTEST = 100_000;
const POLL_MS = 5;
const apiKey = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;

/** Targets: the sandbox adds little to the simulated time, and its own work over 1,000+ funders stays small. */
const TARGETS = {
  /** Normal clock: measured ≤ simulated × 1.1 + 250 ms. */
  normalOverheadRatio: 1.1,
  normalOverheadMs: 250,
  /** Fastest clock, 1,000+ funders: start → completed, median. */
  fastestLargeMs: 1_000,
  /** First page of 25 matches, median. */
  firstPageMs: 50,
};

const ANSWERS = BENCH_CRITERIA_ANSWERS;

let keyCounter = 0;
async function call(sb: SpawnedSandbox, method: string, path: string, o: { body?: unknown; ifMatch?: string; idem?: boolean } = {}) {
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
  if (o.body !== undefined) headers['Content-Type'] = 'application/json';
  if (o.ifMatch) headers['If-Match'] = o.ifMatch;
  if (o.idem) headers['Idempotency-Key'] = `bench-${process.pid}-${keyCounter++}`;
  const res = await fetch(path.startsWith('http') ? path : `${sb.baseUrl}${path}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 300)}`);
  return { etag: res.headers.get('etag'), body: JSON.parse(text) as unknown };
}

async function control(sb: SpawnedSandbox, path: string, body: unknown) {
  const origin = new URL(sb.baseUrl).origin;
  const res = await fetch(`${origin}/_sandbox/${path}`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`control ${path} → ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A project with complete criteria (every product kind, so every product of every funder is matched). */
async function readyProject(sb: SpawnedSandbox) {
  const created = await call(sb, 'POST', 'businesses/', { body: { name: 'Bench Ltd' }, idem: true });
  const businessId = (created.body as { business: { id: string } }).business.id;
  const project = Project.parse((await call(sb, 'POST', 'projects/', { body: { business_id: businessId, name: 'Bench project' }, idem: true })).body);
  const crit = ProjectCriteria.parse((await call(sb, 'GET', project.criteria_url)).body);
  const page = await call(sb, 'GET', `${crit.answers_url}?page_size=1`);
  const revision = (page.body as { answers_revision: number }).answers_revision;
  await call(sb, 'PATCH', crit.answers_url, { body: { answers_revision: revision, answers: ANSWERS }, ifMatch: page.etag! });
  return project;
}

interface Measured {
  ms: number;
  matches: number;
  funders: number;
  firstPageMs: number;
}

/** One run: POST, then read it every POLL_MS until completed; then the first page of matches. */
async function measureRun(sb: SpawnedSandbox, project: Project): Promise<Measured> {
  const crit = ProjectCriteria.parse((await call(sb, 'GET', project.criteria_url)).body);
  const t0 = performance.now();
  let run = MatchRun.parse((await call(sb, 'POST', project.match_runs_url, { body: { expected_criteria_revision: crit.revision }, idem: true })).body);
  while (run.status !== 'completed') {
    if (run.status === 'failed') throw new Error(`run failed: ${JSON.stringify(run.failure)}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
    run = MatchRun.parse((await call(sb, 'GET', run.url)).body);
  }
  const ms = performance.now() - t0;
  const t1 = performance.now();
  const first = FundingMatchPage.parse((await call(sb, 'GET', `${project.matches_url}?page_size=25`)).body);
  const firstPageMs = performance.now() - t1;
  if (first.items.length === 0) throw new Error('no matches');
  return { ms, matches: run.match_count, funders: run.progress.total_units, firstPageMs };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

interface Scenario {
  name: string;
  funders: number;
  matches: number;
  speed: number;
  /** Simulated duration at normal speed (queued + 20 ms per funder). */
  simulatedMs: number;
  runs: number[];
  firstPage: number[];
}

async function scenario(sb: SpawnedSandbox, project: Project, name: string, speed: number, runs: number): Promise<Scenario> {
  await control(sb, 'clock', { speed });
  const results: Measured[] = [];
  for (let i = 0; i < runs; i++) results.push(await measureRun(sb, project));
  const funders = results[0]!.funders;
  return {
    name,
    funders,
    matches: results[0]!.matches,
    speed,
    simulatedMs: DEFAULT_MATCH_TIMING.runQueuedMs + funders * DEFAULT_MATCH_TIMING.funderMs,
    runs: results.map((r) => round(r.ms)),
    firstPage: results.map((r) => round(r.firstPageMs, 2)),
  };
}

function printTable(rows: string[][]) {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  for (const [n, r] of rows.entries()) {
    console.log(r.map((c, i) => c.padEnd(widths[i]!)).join(' | '));
    if (n === 0) console.log(widths.map((wd) => '-'.repeat(wd)).join('-|-'));
  }
}

async function main() {
  const started = Date.now();
  console.log(`Load average at start: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (${os.cpus().length} CPUs)`);
  const sb = await spawnSandbox({ SANDBOX_CONTROLS: '1' });
  try {
    const project = await readyProject(sb);
    const out: Scenario[] = [];
    out.push(await scenario(sb, project, 'seeded funders, normal clock', 1, RUNS));
    out.push(await scenario(sb, project, 'seeded funders, fastest clock', FASTEST, RUNS));
    await control(sb, 'funders', { generate: GENERATED, seed: 1 });
    out.push(await scenario(sb, project, `+${GENERATED} generated, fastest clock`, FASTEST, RUNS));
    out.push(await scenario(sb, project, `+${GENERATED} generated, normal clock`, 1, SLOW_RUNS));

    const normalOk = (s: Scenario) => median(s.runs) <= s.simulatedMs * TARGETS.normalOverheadRatio + TARGETS.normalOverheadMs;
    const [seededNormal, , largeFast, largeNormal] = out as [Scenario, Scenario, Scenario, Scenario];
    const met = {
      seededNormalOverhead: normalOk(seededNormal),
      largeNormalOverhead: normalOk(largeNormal),
      largeFastest: median(largeFast.runs) < TARGETS.fastestLargeMs,
      firstPage: out.every((s) => median(s.firstPage) < TARGETS.firstPageMs),
    };

    console.log('\nMatch run in the sandbox: POST match-runs/ → read back completed (polling every 5 ms)\n');
    printTable([
      ['scenario', 'funders', 'matches', 'clock', 'simulated', 'start → completed, median (min–max)', 'first page of 25, median'],
      ...out.map((s) => [
        s.name,
        String(s.funders),
        String(s.matches),
        s.speed === 1 ? '1×' : `${s.speed}×`,
        s.speed === 1 ? `${s.simulatedMs} ms` : `${round(s.simulatedMs / s.speed, 2)} ms`,
        `${round(median(s.runs))} ms (${Math.min(...s.runs)}–${Math.max(...s.runs)}, n=${s.runs.length})`,
        `${round(median(s.firstPage), 2)} ms`,
      ]),
    ]);
    console.log(
      `\nTargets: normal clock ≤ simulated × ${TARGETS.normalOverheadRatio} + ${TARGETS.normalOverheadMs} ms (seeded ${met.seededNormalOverhead ? 'met' : 'MISSED'}, ` +
        `${GENERATED} generated ${met.largeNormalOverhead ? 'met' : 'MISSED'}); fastest clock over ${largeFast.funders} funders < ${TARGETS.fastestLargeMs} ms ` +
        `(${met.largeFastest ? 'met' : 'MISSED'}); first page < ${TARGETS.firstPageMs} ms (${met.firstPage ? 'met' : 'MISSED'}).`,
    );
    console.log(
      JSON.stringify({
        benchmark: 'match-run',
        at: new Date().toISOString(),
        durationSeconds: round((Date.now() - started) / 1000),
        timing: DEFAULT_MATCH_TIMING,
        loadAverage: os.loadavg().map((x) => round(x, 2)),
        scenarios: out.map((s) => ({ ...s, medianMs: round(median(s.runs)), firstPageMedianMs: round(median(s.firstPage), 2) })),
        targets: TARGETS,
        met,
      }),
    );
  } finally {
    await sb.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
