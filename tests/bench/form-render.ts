// Benchmark of the intake form's rendering (issue requirement), on the large contract (large-1000-v1: 46 sections,
// 909 questions, 1,214 fields) in headless Chromium: navigation → interactive form, keystroke → next paint in a
// text field, and the page's first-load JavaScript; and the same contract rendered by @rjsf/core (React JSON
// Schema Form, AJV 8 validator, live validation) in the same run as the peer, with the ratio peer / ours; and the
// framework's own floor: a bare Next app (tests/bench/form-render/next-floor/: the same next and react, one client
// component with one input), whose navigation → interactive and first-load JS are what any App Router page costs.
// Targets: navigation → interactive ≤ 250 ms median and ≥ 2.8× @rjsf/core; the HTML document
// ≤ 150 KiB decoded; first-load JS ≤ 150 KiB compressed; keystroke → paint ≤ 1.5 ms above the method's floor (the
// bare input) and ≥ 5× @rjsf/core (medians).
//
// One run starts the Portal sandbox, the production BFF and the floor app (`next start`, each built first when
// stale) in their own processes, the BFF on a fresh database, signs a staff member in, fetches the contract and saved answers straight from the
// sandbox to build the peer (tests/bench/form-render/), and measures both pages alike (form-render/measure.ts):
// each navigation in a fresh browser context (cold HTTP cache: a first visit), ours and the peer interleaved.
//
// Run: npx tsx tests/bench/form-render.ts [--runs=7] [--keys=40] ...   (each option also as an env variable)
//   --runs / BENCH_RUNS (7)                     measured navigations per page, after one warm-up each
//   --keys / BENCH_KEYS (40)                    measured keystrokes per page, after --warmup-keys (5) unmeasured
//   --key-gap-ms / BENCH_KEY_GAP_MS (100)       pause after each keystroke's paint (≈ a fast typist)
//   --application / BENCH_APPLICATION           application id (ciappl_atlaslogistics: biz_atlaslogistics, large-1000-v1)
//   --ours-url / BENCH_OURS_URL                 our page: a path or URL (default /applications/<id>); "peer" measures
//                                               the peer twice, a self-check of the harness (ratio ≈ 1)
//   --ours-field / BENCH_OURS_FIELD             selector of the field typed into in our form (default: the first plain
//   --peer-field / BENCH_PEER_FIELD             text question's input; the first input[type=text] when none matches)
//   --ready-selector / BENCH_READY_SELECTOR     the interactive mark (form[data-form-ready="true"])
//   --peer-live / BENCH_PEER_LIVE (1)           0: the peer without live validation
//   --settle-ms / BENCH_SETTLE_MS (1000)        idle time after interactive, before typing / reading resource sizes
//   --timeout-ms / BENCH_TIMEOUT_MS (60000)
//   --floor / BENCH_FLOOR (1)                   0: without the Next floor app
//
// Prints a table (metric | ours | peer | ratio | Next floor | ours − floor | target | met?) and, last, one line of
// JSON with every figure and a `met` map of the targets.
// Exit code 0 when the measurements ran, whether or not the targets are met; 1 when something broke (including
// our page not answering: the peer's figures are still printed).
import os from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import {
  AnswerPage,
  ApplicationContract,
  RepeatableItemPage,
  type AnswerItem,
  type RepeatableItem,
} from '@/lib/portal';
import { answerName } from '@/lib/forms/names';
import { buildIfStale, type NextApp } from '@/server/launcher/build';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { chromiumLaunchOptions } from '../e2e/support/chromium';
import { startNextServer } from '../e2e/support/next-server';
import { answersToFormData, contractToJsonSchema, countFields, firstPlainTextQuestion } from './form-render/contract-to-json-schema';
import {
  measureKeystrokes,
  measureNavigation,
  type DataBytes,
  type NavigationSample,
  type ScriptBytes,
  type Target,
} from './form-render/measure';
import { startPeerServer } from './form-render/peer-server';
import { spawnSandbox } from './lib/spawn-sandbox';
import { startBff } from './lib/start-bff';
import { percentile } from '../support/percentile';

/* Options: --name=value on the command line, else BENCH_NAME in the environment, else the default. */

function option(name: string, fallback: string): string {
  const flag = process.argv.slice(2).find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (flag) return flag.includes('=') ? flag.slice(flag.indexOf('=') + 1) : '1';
  return process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`] ?? fallback;
}
function intOption(name: string, fallback: number, min: number): number {
  const v = Number(option(name, String(fallback)));
  if (!Number.isInteger(v) || v < min) throw new Error(`--${name} must be an integer ≥ ${min}`);
  return v;
}

const opts = {
  runs: intOption('runs', 7, 1),
  keys: intOption('keys', 40, 1),
  warmupKeys: intOption('warmup-keys', 5, 0),
  keyGapMs: intOption('key-gap-ms', 100, 0),
  settleMs: intOption('settle-ms', 1000, 0),
  timeoutMs: intOption('timeout-ms', 60_000, 1000),
  application: option('application', 'ciappl_atlaslogistics'),
  oursUrl: option('ours-url', ''),
  oursField: option('ours-field', ''),
  peerField: option('peer-field', ''),
  readySelector: option('ready-selector', 'form[data-form-ready="true"]'),
  peerLive: option('peer-live', '1') !== '0',
  floor: option('floor', '1') !== '0',
};

/** The targets above. Ratios are peer / ours (higher: ours faster); keystrokes count above the bare input's median. */
const TARGETS = {
  interactiveMs: 250,
  interactiveRatio: 2.8,
  documentDecodedKib: 150,
  firstLoadJsKib: 150,
  keystrokeAboveFloorMs: 1.5,
  keystrokeRatio: 5,
};

/** The framework's floor: a bare App Router app, built from its own directory with the repository's next. */
const FLOOR_APP: NextApp = {
  dir: join(__dirname, 'form-render', 'next-floor'),
  sources: ['tests/bench/form-render/next-floor', 'package.json'],
};
const apiKey = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;

/* Statistics: nearest-rank percentiles over the measured runs. */

interface Stats {
  median: number;
  p90: number;
  min: number;
  max: number;
  n: number;
}
const stats = (xs: number[]): Stats => ({ median: percentile(xs, 50), p90: percentile(xs, 90), min: Math.min(...xs), max: Math.max(...xs), n: xs.length });
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/* The contract and answers, straight from the sandbox (all pages). */

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}` } });
  if (res.status !== 200) throw new Error(`GET ${url} → ${res.status}: ${await res.text()}`);
  return res.json();
}

async function allPages<T>(first: string, parse: (body: unknown) => { items: T[]; next_cursor: string | null }): Promise<T[]> {
  const out: T[] = [];
  let url: string | null = first;
  while (url) {
    const page = parse(await getJson(url));
    out.push(...page.items);
    url = page.next_cursor ? `${first}${first.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(page.next_cursor)}` : null;
  }
  return out;
}

async function loadApplication(sandboxBaseUrl: string, id: string) {
  const base = `${sandboxBaseUrl}client-intake-applications/${encodeURIComponent(id)}/`;
  const contract = ApplicationContract.parse(await getJson(`${base}contract/`));
  const answers: AnswerItem[] = await allPages(`${base}answers/?page_size=500`, (b) => AnswerPage.parse(b));
  const items: RepeatableItem[] = [];
  for (const g of contract.repeatable_groups.filter((g) => g.item_operations.includes('list'))) {
    items.push(...(await allPages(`${base}repeatable-items/${encodeURIComponent(g.block_key)}/?page_size=100`, (b) => RepeatableItemPage.parse(b))));
  }
  return { contract, answers, items };
}

/* The run. */

interface PageResult {
  navigation: NavigationSample[];
  scripts: ScriptBytes | null;
  data: DataBytes | null;
  keystrokes: number[];
  field: string;
}
const emptyResult = (): PageResult => ({ navigation: [], scripts: null, data: null, keystrokes: [], field: '' });

async function navigate(browser: Browser, t: Target, into: PageResult | null) {
  const m = await measureNavigation(browser, t, opts.timeoutMs, into && !into.scripts ? opts.settleMs : 0);
  if (!into) return;
  into.navigation.push(m.sample);
  into.scripts ??= m.scripts;
  into.data ??= m.data;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (x: number) => `${x.toFixed(1)} ms`;

function printTable(rows: string[][]) {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(rows[0]!));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows.slice(1)) console.log(line(r));
}

async function main() {
  const started = Date.now();
  const loadAtStart = os.loadavg().map((x) => round(x, 2));
  buildIfStale();
  if (opts.floor) buildIfStale(process.env, FLOOR_APP);
  const sandbox = await spawnSandbox();
  const cleanups: (() => Promise<void>)[] = [() => sandbox.stop()];
  let browser: Browser | null = null;
  let broken: string | null = null;
  try {
    const bff = await startBff({ portalBaseUrl: sandbox.baseUrl, portalApiKey: apiKey });
    cleanups.unshift(() => bff.stop());

    const { contract, answers, items } = await loadApplication(sandbox.baseUrl, opts.application);
    const { schema, uiSchema } = contractToJsonSchema(contract);
    const formData = answersToFormData(contract, answers, items);
    const peer = await startPeerServer({ schema, uiSchema, formData });
    cleanups.unshift(() => peer.stop());
    const floorServer = opts.floor ? await startNextServer({ dir: FLOOR_APP.dir }) : null;
    if (floorServer) cleanups.unshift(() => floorServer.stop());
    const size = countFields(contract);

    const typed = firstPlainTextQuestion(contract);
    const peerTarget: Target = {
      label: 'peer (rjsf)',
      url: `${peer.url}/${opts.peerLive ? '' : '?live=0'}`,
      cookies: [],
      readySelector: opts.readySelector,
      fieldSelector: opts.peerField || (typed ? `#root_${typed.section_key}_${typed.schema_key}` : 'input[type="text"]'),
    };
    const [cookieName, ...cookieValue] = bff.cookie.split('=');
    const oursUrl =
      opts.oursUrl === 'peer'
        ? peerTarget.url
        : opts.oursUrl
          ? new URL(opts.oursUrl, bff.url).toString()
          : `${bff.url}/applications/${encodeURIComponent(opts.application)}`;
    const oursTarget: Target = {
      label: 'ours',
      url: oursUrl,
      cookies: opts.oursUrl === 'peer' ? [] : [{ name: cookieName!, value: cookieValue.join('='), url: bff.url }],
      readySelector: opts.readySelector,
      fieldSelector:
        opts.oursField ||
        (opts.oursUrl === 'peer' ? peerTarget.fieldSelector : typed ? `[name="${answerName(typed.block_key, typed.schema_key, 'value')}"]` : 'input[type="text"]'),
    };

    console.log(
      `Contract ${contract.contract_version} of ${opts.application}: ${contract.sections.length} sections, ${size.questions} questions, ${size.fields} fields; ` +
        `${answers.filter((a) => a.value !== null).length} saved answers, ${items.length} repeatable items`,
    );
    const floorTarget: Target | null = floorServer
      ? { label: 'Next floor', url: `${floorServer.url}/`, cookies: [], readySelector: opts.readySelector, fieldSelector: 'input' }
      : null;
    console.log(
      `Sandbox ${sandbox.baseUrl}; BFF ${bff.url} (${bff.database}); ours: ${oursTarget.url}; peer: ${peerTarget.url}` +
        (floorTarget ? `; Next floor: ${floorTarget.url}` : ''),
    );
    console.log(
      `Peer bundle (esbuild, minified, production React): ${kib(peer.bundleBytes.raw)} raw, ${kib(peer.bundleBytes.gzip)} gzip; live validation ${opts.peerLive ? 'on' : 'off'}`,
    );
    console.log(`${opts.runs} cold navigations per page after 1 warm-up; ${opts.keys} keystrokes after ${opts.warmupKeys} warm-up, ${opts.keyGapMs} ms apart\n`);

    browser = await chromium.launch({ ...chromiumLaunchOptions(), headless: true });
    console.log(`Chromium ${browser.version()}; ${os.cpus().length} CPUs, load average ${loadAtStart.join(' ')} (other work on the machine skews the figures)`);

    // Is our page there at all? (It answers 404 until the intake form page lands.)
    const probe = await fetch(oursTarget.url, { headers: oursTarget.cookies.length ? { Cookie: bff.cookie } : {}, redirect: 'manual' });
    await probe.body?.cancel();
    const oursAvailable = probe.status === 200;
    if (!oursAvailable) broken = `our page ${oursTarget.url} answered ${probe.status}: only the peer was measured`;

    const ours = emptyResult();
    const peerResult = emptyResult();
    const floorResult = emptyResult();
    const pages: [Target, PageResult][] = [
      ...(oursAvailable ? [[oursTarget, ours] as [Target, PageResult]] : []),
      [peerTarget, peerResult],
      ...(floorTarget ? [[floorTarget, floorResult] as [Target, PageResult]] : []),
    ];
    // Typed into: ours and the peer (the floor's keystrokes are the bare input's, measured below).
    const typedPages = pages.filter(([t]) => t !== floorTarget);

    for (const [t] of pages) await navigate(browser, t, null); // warm-up: server-side caches, JIT of both servers
    for (let i = 0; i < opts.runs; i++) {
      // Ours, peer, floor; then the other way round: none always goes first (after another's context closes).
      for (const [t, r] of i % 2 === 0 ? pages : [...pages].reverse()) await navigate(browser, t, r);
      process.stdout.write(`\rnavigations: ${i + 1}/${opts.runs}`);
    }
    process.stdout.write('\n');
    for (const [t, r] of typedPages) {
      const k = await measureKeystrokes(browser, t, {
        keys: opts.keys,
        warmup: opts.warmupKeys,
        gapMs: opts.keyGapMs,
        timeoutMs: opts.timeoutMs,
        settleMs: opts.settleMs,
      });
      r.keystrokes = k.samples;
      r.field = k.field;
      console.log(`${t.label}: typed into ${k.field}`);
    }
    // The same keystrokes into a bare one-input form: what the method measures when a form does no work at all.
    const floor = await measureKeystrokes(
      browser,
      { label: 'baseline', url: `${peer.url}/baseline`, cookies: [], readySelector: 'form[data-form-ready="true"]', fieldSelector: 'input' },
      { keys: opts.keys, warmup: opts.warmupKeys, gapMs: opts.keyGapMs, timeoutMs: opts.timeoutMs, settleMs: 0 },
    );
    const floorStats = stats(floor.samples);

    /* Report. */
    const summary = (r: PageResult) =>
      r.navigation.length
        ? {
            interactive: stats(r.navigation.map((s) => s.interactive)),
            ready: stats(r.navigation.map((s) => s.ready)),
            ttfb: stats(r.navigation.map((s) => s.ttfb)),
            domContentLoaded: stats(r.navigation.map((s) => s.domContentLoaded)),
            firstContentfulPaint: stats(r.navigation.map((s) => s.firstContentfulPaint ?? NaN).filter((x) => !Number.isNaN(x))),
            keystroke: stats(r.keystrokes),
            controls: r.navigation[0]!.controls,
            domNodes: r.navigation[0]!.domNodes,
            scripts: r.scripts,
            data: r.data,
            field: r.field,
            raw: { interactive: r.navigation.map((s) => round(s.interactive)), keystroke: r.keystrokes.map((x) => round(x)) },
          }
        : null;
    const o = summary(ours);
    const p = summary(peerResult)!;
    const f = summary(floorResult);
    const ratio = (a: number | undefined, b: number) => (a === undefined || a <= 0 ? null : b / a);
    const fmtRatio = (r: number | null) => (r === null ? 'n/a' : `${r.toFixed(2)}×`);
    const met = (ok: boolean | null) => (ok === null ? 'n/a' : ok ? 'yes' : 'NO');
    const na = 'n/a';
    const js = (x: ReturnType<typeof summary>) => (x?.scripts ? `${kib(x.scripts.encoded)} (${x.scripts.count} file${x.scripts.count === 1 ? '' : 's'})` : na);
    /** ours − floor, for the figures the floor has (what the product adds to a bare App Router page). */
    const overFloor = (pick: (x: NonNullable<ReturnType<typeof summary>>) => number | undefined, fmt: (x: number) => string) => {
      const a = o ? pick(o) : undefined;
      const b = f ? pick(f) : undefined;
      return a === undefined || b === undefined ? null : { value: a - b, text: `${a - b >= 0 ? '+' : '−'}${fmt(Math.abs(a - b))}` };
    };

    const rInteractive = ratio(o?.interactive.median, p.interactive.median);
    const rKey = ratio(o?.keystroke.median, p.keystroke.median);
    const rJs = ratio(o?.scripts?.encoded, p.scripts!.encoded);
    const keyAboveFloor = o ? o.keystroke.median - floorStats.median : null;
    const documentKib = o?.data ? o.data.documentDecoded / 1024 : null;
    const jsKib = o?.scripts ? o.scripts.encoded / 1024 : null;
    const verdicts = {
      interactive: o ? o.interactive.median <= TARGETS.interactiveMs : null,
      interactiveRatio: rInteractive === null ? null : rInteractive >= TARGETS.interactiveRatio,
      htmlDocument: documentKib === null ? null : documentKib <= TARGETS.documentDecodedKib,
      firstLoadJs: jsKib === null ? null : jsKib <= TARGETS.firstLoadJsKib,
      keystrokeAboveFloor: keyAboveFloor === null ? null : keyAboveFloor <= TARGETS.keystrokeAboveFloorMs,
      keystrokeRatio: rKey === null ? null : rKey >= TARGETS.keystrokeRatio,
    };
    const floorDiff = {
      interactiveMedian: overFloor((x) => x.interactive.median, ms),
      firstLoadJsEncoded: overFloor((x) => x.scripts?.encoded, kib),
      firstLoadJsDecoded: overFloor((x) => x.scripts?.decoded, kib),
      documentDecoded: overFloor((x) => x.data?.documentDecoded, kib),
      ttfbMedian: overFloor((x) => x.ttfb.median, ms),
    };
    const fl = (text: string) => (f ? text : na);

    console.log(`\nForm render, large contract (${size.fields} fields), headless Chromium; ratio = peer / ours (higher: ours faster / smaller)\n`);
    printTable([
      ['metric', 'ours', 'peer (rjsf)', 'ratio (peer/ours)', 'Next floor', 'ours − floor', 'target', 'met?'],
      ['navigation → interactive, median', o ? ms(o.interactive.median) : na, ms(p.interactive.median), fmtRatio(rInteractive), fl(ms(f?.interactive.median ?? 0)), floorDiff.interactiveMedian?.text ?? na, `≤ ${TARGETS.interactiveMs} ms; ≥ ${TARGETS.interactiveRatio}×`, `${met(verdicts.interactive)}; ${met(verdicts.interactiveRatio)}`],
      ['navigation → interactive, p90', o ? ms(o.interactive.p90) : na, ms(p.interactive.p90), fmtRatio(ratio(o?.interactive.p90, p.interactive.p90)), fl(ms(f?.interactive.p90 ?? 0)), '', '', ''],
      ['keystroke → paint, median', o ? ms(o.keystroke.median) : na, ms(p.keystroke.median), fmtRatio(rKey), '', '', `≥ ${TARGETS.keystrokeRatio}×`, met(verdicts.keystrokeRatio)],
      ['keystroke → paint above the bare input', keyAboveFloor === null ? na : ms(keyAboveFloor), ms(p.keystroke.median - floorStats.median), '', '', '', `≤ ${TARGETS.keystrokeAboveFloorMs} ms`, met(verdicts.keystrokeAboveFloor)],
      ['keystroke → paint, p90', o ? ms(o.keystroke.p90) : na, ms(p.keystroke.p90), fmtRatio(ratio(o?.keystroke.p90, p.keystroke.p90)), '', '', '', ''],
      ['first-load JS, transferred (compressed)', js(o), js(p), fmtRatio(rJs), js(f), floorDiff.firstLoadJsEncoded?.text ?? na, `≤ ${TARGETS.firstLoadJsKib} KiB`, met(verdicts.firstLoadJs)],
      ['first-load JS, decoded', o?.scripts ? kib(o.scripts.decoded) : na, kib(p.scripts!.decoded), fmtRatio(ratio(o?.scripts?.decoded, p.scripts!.decoded)), f?.scripts ? kib(f.scripts.decoded) : na, floorDiff.firstLoadJsDecoded?.text ?? na, '', ''],
      ['HTML document, transferred / decoded', o?.data ? `${kib(o.data.documentEncoded)} / ${kib(o.data.documentDecoded)}` : na, `${kib(p.data!.documentEncoded)} / ${kib(p.data!.documentDecoded)}`, '', f?.data ? `${kib(f.data.documentEncoded)} / ${kib(f.data.documentDecoded)}` : na, floorDiff.documentDecoded ? `${floorDiff.documentDecoded.text} decoded` : na, `≤ ${TARGETS.documentDecodedKib} KiB decoded`, met(verdicts.htmlDocument)],
      ['data fetched during load, transferred / decoded', o?.data ? `${kib(o.data.fetchEncoded)} / ${kib(o.data.fetchDecoded)}` : na, `${kib(p.data!.fetchEncoded)} / ${kib(p.data!.fetchDecoded)}`, '', f?.data ? `${kib(f.data.fetchEncoded)} / ${kib(f.data.fetchDecoded)}` : na, '', '', ''],
      ['ready mark seen, median', o ? ms(o.ready.median) : na, ms(p.ready.median), '', fl(ms(f?.ready.median ?? 0)), '', '', ''],
      ['TTFB / DOMContentLoaded, median', o ? `${ms(o.ttfb.median)} / ${ms(o.domContentLoaded.median)}` : na, `${ms(p.ttfb.median)} / ${ms(p.domContentLoaded.median)}`, '', f ? `${ms(f.ttfb.median)} / ${ms(f.domContentLoaded.median)}` : na, floorDiff.ttfbMedian ? `TTFB ${floorDiff.ttfbMedian.text}` : na, '', ''],
      ['first contentful paint, median', o && o.firstContentfulPaint.n ? ms(o.firstContentfulPaint.median) : na, p.firstContentfulPaint.n ? ms(p.firstContentfulPaint.median) : na, '', f && f.firstContentfulPaint.n ? ms(f.firstContentfulPaint.median) : na, '', '', ''],
      ['keystroke → paint, bare input (method floor)', `median ${ms(floorStats.median)}, p90 ${ms(floorStats.p90)}`, '', '', '', '', '', ''],
      ['form controls rendered / DOM elements', o ? `${o.controls} / ${o.domNodes}` : na, `${p.controls} / ${p.domNodes}`, '', f ? `${f.controls} / ${f.domNodes}` : na, '', '', ''],
    ]);
    if (o?.scripts) {
      // Turbopack names a chunk by its content: a file the floor loads too is the framework's, byte for byte.
      const floorFiles = new Set(f?.scripts?.files.map((x) => x.path) ?? []);
      const shared = o.scripts.files.filter((x) => floorFiles.has(x.path));
      const sum = (xs: { encoded: number }[]) => xs.reduce((n, x) => n + x.encoded, 0);
      console.log(
        `\nOur first-load JS by file, compressed${f ? ` (* also loaded by the Next floor: ${kib(sum(shared))} in ${shared.length} files)` : ''}:\n  ` +
          [...o.scripts.files]
            .sort((a, b) => b.encoded - a.encoded)
            .map((x) => `${x.path.split('/').pop()} ${kib(x.encoded)}${floorFiles.has(x.path) ? ' *' : ''}`)
            .join(', '),
      );
    }
    if (o) {
      const all = Object.values(verdicts).filter((v) => v !== null);
      console.log(all.every(Boolean) ? '\nAll targets met.' : '\nSome targets are missed (see "met?").');
    }
    if (broken) console.error(`\n${broken}`);

    const json = {
      benchmark: 'form-render',
      at: new Date().toISOString(),
      durationSeconds: round((Date.now() - started) / 1000),
      chromium: browser.version(),
      options: opts,
      contract: { version: contract.contract_version, application: opts.application, sections: contract.sections.length, ...size },
      targets: TARGETS,
      ours: o ? { url: oursTarget.url, ...o } : { url: oursTarget.url, error: broken },
      peer: { url: peerTarget.url, bundleBytes: peer.bundleBytes, liveValidate: opts.peerLive, ...p },
      // The floor is not typed into: its keystroke → paint is the bare input's (keystrokeFloor).
      nextFloor: f ? { url: floorTarget!.url, ...f, keystroke: undefined } : null,
      oursMinusNextFloor: Object.fromEntries(Object.entries(floorDiff).map(([k, v]) => [k, v === null ? null : round(v.value)])),
      keystrokeFloor: { ...floorStats, raw: floor.samples.map((x) => round(x)) },
      keystrokeAboveFloor: keyAboveFloor === null ? null : round(keyAboveFloor, 2),
      loadAverage: { start: loadAtStart, end: os.loadavg().map((x) => round(x, 2)) },
      ratios: { interactiveMedian: rInteractive, keystrokeMedian: rKey, firstLoadJsEncoded: rJs },
      met: verdicts,
    };
    console.log(JSON.stringify(json));
  } finally {
    await browser?.close();
    for (const c of cleanups) await c().catch((e: unknown) => console.error('cleanup:', e));
  }
  if (broken) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
