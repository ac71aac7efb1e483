// Benchmark of opening a form: GET /api/applications/<id>/form (one browser request; the BFF reads the
// application, contract, answers, items and files upstream in parallel and keeps the contract) against the
// baseline of the separate routes a browser would otherwise call (application, contract, every answers
// page, every page of every listable repeatable group, every files page). Counts the BFF's upstream calls
// from its own log (one "portal request" line per call), cold and warm, and times the warm opens.
// Run: npx tsx tests/bench/form-open-calls.ts (suggested script: bench:form-open)
//
//   BENCH_OPENS (20)        warm opens timed per application (the median is printed)
//   BENCH_STALE (1)         also write an answer, then open once after the contract's 30 s freshness window
//                           (a 304: the contract's ETag names contract_version only); 0 skips the wait
//
// Two BFF processes against one sandbox process: one serves only the snapshot route, the other only the
// separate routes, so each starts cold (no links, no contract kept) for each application.
import { readFileSync } from 'node:fs';
import { AnswersPageView, ContractView } from '@/lib/bff/applications';
import { FilesPageView } from '@/lib/bff/files';
import { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { ItemsPageView } from '@/lib/bff/items';
import { buildIfStale } from '@/server/launcher/build';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { spawnSandbox } from './lib/spawn-sandbox';
import { startBff, type BenchBff } from './lib/start-bff';

const OPENS = Number(process.env.BENCH_OPENS ?? 20);
const STALE = process.env.BENCH_STALE !== '0';
/** CONTRACT_FRESH_MS of server/applications/contract-cache.ts (a server-only module, not importable here). */
const CONTRACT_FRESH_MS = 30_000;
const apiKey = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;

/** (a) the funding demo application, partly filled (owners with addresses); (b) the 1,000-field contract. */
const APPS = [
  { label: 'funding (ciappl_brightpath)', id: 'ciappl_brightpath' },
  { label: 'large-1000-v1 (ciappl_atlaslogistics)', id: 'ciappl_atlaslogistics' },
];

interface Got {
  status: number;
  bytes: number;
  body: unknown;
}

async function get(bff: BenchBff, path: string): Promise<Got> {
  const res = await fetch(`${bff.url}${path}`, { headers: { Cookie: bff.cookie, Accept: 'application/json' } });
  const buf = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}: ${buf.toString('utf8').slice(0, 300)}`);
  return { status: res.status, bytes: buf.byteLength, body: JSON.parse(buf.toString('utf8')) as unknown };
}

/** The BFF's upstream API calls logged so far, once the log stopped growing (it is written asynchronously). */
async function loggedCalls(bff: BenchBff): Promise<Array<{ path: string; status: number | null }>> {
  let last = -1;
  for (;;) {
    await new Promise((r) => setTimeout(r, 60));
    const calls = readFileSync(bff.logFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"msg":"portal request"'))
      .map((l) => JSON.parse(l) as { path: string; status: number | null });
    if (calls.length === last) return calls;
    last = calls.length;
  }
}

interface Open {
  /** Upstream calls the open caused. */
  calls: number;
  /** Each call by what it read (application, contract, answers, repeatable-items/<group>, files) and its status. */
  list: string[];
  /** Of which on the contract, by status (200: the full body; 304: revalidated). */
  contract: string;
  /** Browser requests and the bytes of their reply bodies. */
  requests: number;
  bytes: number;
  ms: number;
}

async function measured(bff: BenchBff, open: () => Promise<{ requests: number; bytes: number }>): Promise<Open> {
  const before = (await loggedCalls(bff)).length;
  const t0 = performance.now();
  const { requests, bytes } = await open();
  const ms = performance.now() - t0;
  const calls = (await loggedCalls(bff)).slice(before);
  const contract = calls.filter((c) => c.path.endsWith('/contract/')).map((c) => c.status);
  const list = calls.map((c) => `${whatRead(c.path)} ${c.status ?? 'error'}`);
  return { calls: calls.length, list, contract: contract.length ? contract.join('+') : 'none', requests, bytes, ms };
}

/** What an upstream path reads, below the application: '' is the application itself. */
function whatRead(path: string): string {
  const below = /\/(?:client-intake-applications|deal-applications)\/[^/]+\/(.*)$/.exec(path)?.[1] ?? path;
  const what = below.replace(/\/$/, '');
  return what === '' ? 'application' : what;
}

/** Why each upstream call of an open remains (the bench's note). */
const WHY: Array<[RegExp, string]> = [
  [/^application /, 'the application: status, progress, submitted_at and the ETag submit quotes (cold: also where its contract is)'],
  [/^contract 200/, 'the questions, read in full once and kept by contract_url'],
  [/^contract 304/, 'past the 30 s window: asks whether contract_version still holds (ETag names it alone), nothing re-sent'],
  [/^answers /, 'the answers outside groups, 500 a page: anyone may have written since; a page’s cursor comes from the one before'],
  [/^repeatable-items\//, 'one listable group’s items: the Portal lists items per group only (nested groups: every parent at once)'],
  [/^files /, 'the files of file questions'],
];
const why = (call: string) => WHY.find(([re]) => re.test(call))?.[1] ?? '(unexplained)';

function explain(title: string, o: Open) {
  console.log(`    ${title}: ${o.calls} call${o.calls === 1 ? '' : 's'}`);
  for (const c of o.list) console.log(`      ${c.padEnd(34)} ${why(c)}`);
}

/** The one request of the snapshot route. */
async function openSnapshot(bff: BenchBff, id: string) {
  const r = await get(bff, `/api/applications/${id}/form`);
  FormSnapshotView.parse(r.body);
  return { requests: 1, bytes: r.bytes };
}

/**
 * What a browser does when it opens the form page: the page (the server reads the whole form and sends the open
 * section), then the browser's read of the whole form naming the page's token, handed over without a second
 * upstream read (server/applications/form-handover.ts). Returns the calls of the second request alone too.
 */
async function openPage(bff: BenchBff, id: string) {
  const page = await fetch(`${bff.url}/applications/${id}`, { headers: { Cookie: bff.cookie, Accept: 'text/html' } });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`GET /applications/${id} → ${page.status}`);
  const token = /rest\\*":\\*"([\w-]{16,64})/.exec(html)?.[1];
  if (!token) throw new Error('the page carries no token for the rest of the form');
  const before = (await loggedCalls(bff)).length;
  const r = await get(bff, `/api/applications/${id}/form?rest=${token}`);
  FormSnapshotView.parse(r.body);
  const restCalls = (await loggedCalls(bff)).length - before;
  return { requests: 2, bytes: Buffer.byteLength(html) + r.bytes, restCalls };
}

/** One answer write through the BFF, as the form's autosave sends it: what moves answers_revision (not the contract's version). */
async function writeOneAnswer(bff: BenchBff, id: string) {
  const snap = FormSnapshotView.parse((await get(bff, `/api/applications/${id}/form`)).body);
  const field = snap.answers.items.find((i) => i.value_type === 'string' && i.allowed_values.length === 0)!;
  const res = await fetch(`${bff.url}/api/applications/${id}/answers`, {
    method: 'PATCH',
    headers: { Cookie: bff.cookie, 'Content-Type': 'application/json', 'X-CSRF': '1', Origin: bff.url, 'If-Match': snap.answers.etag },
    body: JSON.stringify({
      answers_revision: snap.answers.answers_revision,
      answers: [{ block_key: field.block_key, schema_key: field.schema_key, field_key: field.field_key, value: `Written ${Date.now()}` }],
    }),
  });
  if (res.status !== 200) throw new Error(`answer write → ${res.status}: ${await res.text()}`);
}

/** Every page of a paged route. */
async function pages(bff: BenchBff, path: string, pageSize: number, parse: (b: unknown) => { next_cursor: string | null }) {
  let requests = 0;
  let bytes = 0;
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams({ page_size: String(pageSize), ...(cursor ? { cursor } : {}) });
    const r = await get(bff, `${path}?${q}`);
    requests += 1;
    bytes += r.bytes;
    cursor = parse(r.body).next_cursor;
  } while (cursor);
  return { requests, bytes };
}

/**
 * The baseline: what a browser does with the separate routes, as quickly as it can — the application and
 * the contract at once (the contract names the groups), then every answers page, every listable group and
 * every files page at once.
 */
async function openSeparately(bff: BenchBff, id: string) {
  const base = `/api/applications/${id}`;
  const [app, contract] = await Promise.all([get(bff, base), get(bff, `${base}/contract`)]);
  const c = ContractView.parse((contract.body as { contract: unknown }).contract);
  const groups = c.repeatable_groups.filter((g) => g.item_operations.includes('list')).map((g) => g.block_key);
  const rest = await Promise.all([
    pages(bff, `${base}/answers`, 500, (b) => AnswersPageView.parse(b)),
    ...groups.map((g) => pages(bff, `${base}/items/${g}`, 500, (b) => ItemsPageView.parse(b))),
    pages(bff, `${base}/files`, 100, (b) => FilesPageView.parse(b)),
  ]);
  return { requests: 2 + rest.reduce((n, r) => n + r.requests, 0), bytes: app.bytes + contract.bytes + rest.reduce((n, r) => n + r.bytes, 0) };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function warmMedian(bff: BenchBff, open: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < OPENS; i++) {
    const t0 = performance.now();
    await open();
    times.push(performance.now() - t0);
  }
  return median(times);
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const row = (what: string, o: Open) =>
  `  ${what.padEnd(34)} upstream calls ${String(o.calls).padStart(3)} (contract: ${o.contract.padEnd(4)})  browser requests ${String(o.requests).padStart(2)}  reply ${kb(o.bytes).padStart(10)}  ${o.ms.toFixed(1).padStart(7)} ms`;

async function main() {
  buildIfStale();
  const sandbox = await spawnSandbox();
  const bffs: BenchBff[] = [];
  try {
    const start = () => startBff({ portalBaseUrl: sandbox.baseUrl, portalApiKey: apiKey, env: { LOG_LEVEL: 'info' } });
    const snap = await start();
    bffs.push(snap);
    const separate = await start();
    bffs.push(separate);
    console.log(`Sandbox at ${sandbox.baseUrl}; BFF (snapshot) at ${snap.url}; BFF (separate routes) at ${separate.url}; database: ${snap.database}`);

    const summary: string[] = [];
    const results: Record<string, { cold: number; warm: number; cold_calls: string[]; warm_calls: string[]; after_window?: string[] }> = {};
    const met: Record<string, boolean> = {};
    for (const app of APPS) {
      console.log(`\n${app.label}`);
      const cold = await measured(snap, () => openSnapshot(snap, app.id));
      console.log(row('snapshot, cold', cold));
      const warm = await measured(snap, () => openSnapshot(snap, app.id));
      console.log(row('snapshot, warm (contract kept)', warm));
      explain('calls that remain, cold', cold);
      explain('calls that remain, warm', warm);
      results[app.id] = { cold: cold.calls, warm: warm.calls, cold_calls: cold.list, warm_calls: warm.list };
      met[`${app.id}.contract_read_once`] = cold.contract === '200' && warm.contract === 'none';
      met[`${app.id}.every_call_explained`] = [...cold.list, ...warm.list].every((c) => why(c) !== '(unexplained)');
      const snapMs = await warmMedian(snap, () => openSnapshot(snap, app.id));

      // The page, as a browser opens it: the server's read, then the handed-over rest (no upstream call).
      let restCalls = 0;
      const page = await measured(snap, async () => {
        const o = await openPage(snap, app.id);
        restCalls += o.restCalls;
        return o;
      });
      console.log(row('form page + the rest handed over', page));
      console.log(`    of which the browser's read of the whole form: ${restCalls} upstream calls`);
      met[`${app.id}.page_rest_handed_over`] = restCalls === 0;

      const baseCold = await measured(separate, () => openSeparately(separate, app.id));
      console.log(row('separate routes, cold', baseCold));
      const baseWarm = await measured(separate, () => openSeparately(separate, app.id));
      console.log(row('separate routes, warm', baseWarm));
      const baseMs = await warmMedian(separate, () => openSeparately(separate, app.id));

      console.log(`  warm open latency, median of ${OPENS}: snapshot ${snapMs.toFixed(1)} ms; separate routes ${baseMs.toFixed(1)} ms`);
      console.log(
        `  upstream calls vs separate routes: cold ${cold.calls}/${baseCold.calls} = ${(cold.calls / baseCold.calls).toFixed(2)}x, ` +
          `warm ${warm.calls}/${baseWarm.calls} = ${(warm.calls / baseWarm.calls).toFixed(2)}x; ` +
          `browser requests 1 vs ${baseWarm.requests}; reply bytes ${kb(warm.bytes)} vs ${kb(baseWarm.bytes)}`,
      );
      summary.push(
        `${app.label.padEnd(40)} calls cold ${cold.calls} / warm ${warm.calls} (separate: ${baseCold.calls} / ${baseWarm.calls}); ` +
          `reply ${kb(warm.bytes)}; warm median ${snapMs.toFixed(1)} ms (separate ${baseMs.toFixed(1)} ms)`,
      );
    }

    if (STALE) {
      // An answer write first: the contract's answers_revision moves, its version (and ETag) does not.
      for (const app of APPS) await writeOneAnswer(snap, app.id);
      console.log(`\nWaiting ${(CONTRACT_FRESH_MS / 1000 + 1).toFixed(0)} s for the contract freshness window to pass (BENCH_STALE=0 skips this)…`);
      await new Promise((r) => setTimeout(r, CONTRACT_FRESH_MS + 1000));
      for (const app of APPS) {
        const stale = await measured(snap, () => openSnapshot(snap, app.id));
        console.log(row(`${app.id}, after the window`, stale));
        explain('calls that remain, after the window', stale);
        results[app.id]!.after_window = stale.list;
        met[`${app.id}.revalidated_not_reread`] = stale.contract === '304';
      }
    }

    console.log('\nSummary');
    for (const s of summary) console.log(`  ${s}`);
    console.log(JSON.stringify({ bench: 'form-open', calls: results, met }));
  } finally {
    for (const b of bffs) await b.stop();
    await sandbox.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
