// What runs per keystroke in the intake form on the large contract: the form-render benchmark's own keystroke
// measurement (form-render/measure.ts: same field, same probe, same pacing) under a Chrome trace with the V8
// sampling profiler, so the figures it prints belong to the keystrokes it times; the same for a bare one-input
// page (the method's floor) first. It prints, per keystroke: keystroke → paint (median, p90; tracing slows it),
// the renderer main thread's CPU time from keydown to the end of the frame that shows it, by trace event (self
// thread time: handlers, layout, paint, layerize, GC), ours beside the floor's, our JavaScript's self time by
// script, and the functions with the most, each with an excerpt of the production chunk at that spot (the
// build has no source maps; property names and strings survive minifying).
//
// Run: npm run bench:keystroke-profile -- [--keys=60] [--gap-ms=100] [--top=30] [--url=/applications/<id>]
//   Writes our trace to /tmp/keystroke-profile.json (open it in DevTools' Performance panel);
//   KEYSTROKE_INVALIDATIONS=1 adds the style, layout and paint invalidation records to it.
import { writeFileSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';
import { ApplicationContract } from '@/lib/portal';
import { answerName } from '@/lib/forms/names';
import { buildIfStale } from '@/server/launcher/build';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { chromiumLaunchOptions } from '../e2e/support/chromium';
import { percentile } from '../support/percentile';
import { firstPlainTextQuestion } from './form-render/contract-to-json-schema';
import { measureKeystrokes, type Target } from './form-render/measure';
import { startPeerServer } from './form-render/peer-server';
import { spawnSandbox } from './lib/spawn-sandbox';
import { startBff } from './lib/start-bff';

function option(name: string, fallback: string): string {
  const flag = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`));
  return flag ? flag.slice(name.length + 3) : fallback;
}
const opts = {
  keys: Number(option('keys', '60')),
  warmup: 5,
  gapMs: Number(option('gap-ms', '100')),
  top: Number(option('top', '30')),
  application: option('application', 'ciappl_atlaslogistics'),
  url: option('url', ''),
};
const TRACE_FILE = '/tmp/keystroke-profile.json';
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'v8.execute',
  'v8',
  'disabled-by-default-v8.cpu_profiler',
  'disabled-by-default-v8.cpu_profiler.hires',
  'blink.user_timing',
  ...(process.env.KEYSTROKE_INVALIDATIONS ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : []),
];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of a complete event. */
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { name?: string; data?: Record<string, unknown> & { type?: string; cpuProfile?: CpuProfileChunk; timeDeltas?: number[]; startTime?: number } };
}
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface CpuProfileChunk {
  nodes?: { id: number; callFrame: CallFrame; parent?: number }[];
  samples?: number[];
}

const fmt = (us: number, per: number) => (us / 1000 / per).toFixed(3).padStart(7);

type Window = readonly [from: number, to: number];
const inAny = (windows: readonly Window[], t: number) => windows.some(([from, to]) => t >= from && t <= to);

/**
 * Self time by event name on one thread, of events starting in the windows (µs): each event minus its children,
 * in thread CPU time (tdur) where the trace has it, so that other processes taking the core do not count.
 */
function selfTimeByEvent(events: TraceEvent[], windows: readonly Window[]): Map<string, number> {
  const xs = events.filter((e) => e.ph === 'X' && e.dur !== undefined && inAny(windows, e.ts)).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const stack: { end: number; key: string }[] = [];
  for (const e of xs) {
    while (stack.length && stack[stack.length - 1]!.end <= e.ts) stack.pop();
    const key = e.name === 'EventDispatch' ? `EventDispatch ${e.args?.data?.type ?? ''}` : e.name;
    const cpu = e.tdur ?? e.dur!;
    self.set(key, (self.get(key) ?? 0) + cpu);
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.key, (self.get(parent.key) ?? 0) - cpu);
    stack.push({ end: e.ts + e.dur!, key });
  }
  return self;
}

/** The sampled profile of one renderer thread (Profile + ProfileChunk events), as timed samples. */
function profileSamples(events: TraceEvent[], pid: number) {
  const nodes = new Map<number, { callFrame: CallFrame; parent?: number }>();
  const samples: { t: number; node: number }[] = [];
  const starts = new Map<string, number>();
  for (const e of events) if (e.name === 'Profile' && e.pid === pid && e.id) starts.set(e.id, e.args!.data!.startTime as number);
  const last = new Map<string, number>();
  for (const e of events.filter((x) => x.name === 'ProfileChunk' && x.pid === pid && x.id && starts.has(x.id))) {
    const data = e.args!.data!;
    for (const n of data.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
    let t = last.get(e.id!) ?? starts.get(e.id!)!;
    const deltas = data.timeDeltas ?? [];
    (data.cpuProfile?.samples ?? []).forEach((node, i) => {
      t += deltas[i] ?? 0;
      samples.push({ t, node });
    });
    last.set(e.id!, t);
  }
  samples.sort((a, b) => a.t - b.t);
  return { nodes, samples };
}

async function excerpt(sources: Map<string, Promise<string>>, frame: CallFrame): Promise<string> {
  if (!frame.url?.startsWith('http')) return '';
  if (!sources.has(frame.url)) sources.set(frame.url, fetch(frame.url).then((r) => r.text()).catch(() => ''));
  const lines = (await sources.get(frame.url)!).split('\n');
  const line = lines[frame.lineNumber] ?? '';
  return line.slice(Math.max(0, frame.columnNumber - 10), frame.columnNumber + 70).replace(/\s+/g, ' ');
}

interface KeystrokeProfile {
  field: string;
  samples: number[];
  /** Keystrokes measured: the denominators of the per-keystroke figures. */
  n: number;
  /** Trace event → self time (µs) over all measured keystrokes' windows. */
  events: Map<string, number>;
  js: { us: number; frame: CallFrame }[];
}

/** The benchmark's keystroke measurement of one page, traced; the trace of the last run stays in TRACE_FILE. */
async function profile(browser: Browser, target: Target): Promise<KeystrokeProfile> {
  await browser.startTracing(undefined, { categories: CATEGORIES });
  const result = await measureKeystrokes(browser, target, { keys: opts.keys, warmup: opts.warmup, gapMs: opts.gapMs, timeoutMs: 60_000, settleMs: 1000 });
  const buffer = await browser.stopTracing();
  writeFileSync(TRACE_FILE, buffer);
  const events = (JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;

  // The page's renderer main thread: the one the keydown events were dispatched on.
  const keydowns = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown').sort((a, b) => a.ts - b.ts);
  if (keydowns.length < opts.warmup + opts.keys) throw new Error(`${target.label}: only ${keydowns.length} keydowns in the trace`);
  const { pid, tid } = keydowns[0]!;
  // Each keystroke's window: from its keydown to the end of the first frame committed after it (what the sample
  // times, less the input's delivery before the keydown and the probe's message after the frame).
  const commits = events.filter((e) => e.name === 'Commit' && e.pid === pid && e.tid === tid && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
  const windows: Window[] = keydowns.slice(opts.warmup).map((k) => {
    const frame = commits.find((c) => c.ts > k.ts);
    return [k.ts - 200, frame ? frame.ts + frame.dur! : k.ts];
  });

  const { nodes, samples } = profileSamples(events, pid);
  const inWindow = samples.filter((s) => inAny(windows, s.t));
  const bySelf = new Map<number, number>();
  for (let i = 0; i < inWindow.length - 1; i++) {
    const s = inWindow[i]!;
    // A sample stands for the time until the next one (bounded: the next may lie in the next window).
    bySelf.set(s.node, (bySelf.get(s.node) ?? 0) + Math.min(inWindow[i + 1]!.t - s.t, 500));
  }
  const byFrame = new Map<string, { us: number; frame: CallFrame }>();
  for (const [id, us] of bySelf) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)' || frame.functionName === '(program)') continue;
    const key = `${frame.functionName}|${frame.url}|${frame.lineNumber}|${frame.columnNumber}`;
    const entry = byFrame.get(key) ?? { us: 0, frame };
    entry.us += us;
    byFrame.set(key, entry);
  }
  return {
    field: result.field,
    samples: result.samples,
    n: windows.length,
    events: selfTimeByEvent(events.filter((e) => e.pid === pid && e.tid === tid), windows),
    js: [...byFrame.values()].sort((a, b) => b.us - a.us),
  };
}

async function main() {
  buildIfStale();
  const apiKey = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;
  const sandbox = await spawnSandbox();
  const bff = await startBff({ portalBaseUrl: sandbox.baseUrl, portalApiKey: apiKey });
  // Only its bare one-input page is used: the floor of the method, traced alike.
  const peer = await startPeerServer({ schema: {}, uiSchema: {}, formData: {} });
  const browser = await chromium.launch({ ...chromiumLaunchOptions(), headless: true });
  try {
    const res = await fetch(`${sandbox.baseUrl}client-intake-applications/${encodeURIComponent(opts.application)}/contract/`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    const typed = firstPlainTextQuestion(ApplicationContract.parse(await res.json()));
    const [cookieName, ...cookieValue] = bff.cookie.split('=');
    const url = new URL(opts.url || `/applications/${encodeURIComponent(opts.application)}`, bff.url).toString();
    const readySelector = 'form[data-form-ready="true"]';
    const floor = await profile(browser, { label: 'floor', url: `${peer.url}/baseline`, cookies: [], readySelector, fieldSelector: 'input' });
    const ours = await profile(browser, {
      label: 'ours',
      url,
      cookies: [{ name: cookieName!, value: cookieValue.join('='), url: bff.url }],
      readySelector,
      fieldSelector: typed ? `[name="${answerName(typed.block_key, typed.schema_key, 'value')}"]` : 'input[type="text"]',
    });

    console.log(`Typed ${ours.n} keys (after ${opts.warmup} warm-up, ${opts.gapMs} ms apart) into ${ours.field} at ${url}, traced (slower than untraced)`);
    const line = (label: string, xs: number[]) => `${label}: median ${percentile(xs, 50).toFixed(1)} ms, p90 ${percentile(xs, 90).toFixed(1)} ms`;
    console.log(`keystroke → paint, ${line('ours', ours.samples)}; ${line('bare input (floor)', floor.samples)}\n`);

    const names = [...new Set([...ours.events.keys(), ...floor.events.keys()])]
      .map((name) => ({ name, ours: ours.events.get(name) ?? 0, floor: floor.events.get(name) ?? 0 }))
      .sort((a, b) => b.ours - a.ours);
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    console.log('Renderer main thread from keydown to after its paint: self CPU time per keystroke (ms) by trace event');
    console.log(`${'ours'.padStart(7)}  ${'floor'.padStart(7)}  event`);
    console.log(`${fmt(sum(ours.events), ours.n)}  ${fmt(sum(floor.events), floor.n)}  (total)`);
    for (const e of names.slice(0, 20)) console.log(`${fmt(e.ours, ours.n)}  ${fmt(e.floor, floor.n)}  ${e.name}`);

    const jsTotal = ours.js.reduce((s, f) => s + f.us, 0);
    console.log(`\nOurs: JavaScript and runtime self time per keystroke (ms), sampled; total ${fmt(jsTotal, ours.n)} ms`);
    const byScript = new Map<string, number>();
    for (const { us, frame } of ours.js) {
      const script = frame.url?.startsWith('http') ? frame.url.split('/').pop()! : frame.functionName.startsWith('(') ? frame.functionName : '(page and browser built-ins)';
      byScript.set(script, (byScript.get(script) ?? 0) + us);
    }
    console.log(`By script: ${[...byScript].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, us]) => `${k} ${fmt(us, ours.n).trim()}`).join(', ')}`);
    const sources = new Map<string, Promise<string>>();
    for (const { us, frame } of ours.js.slice(0, opts.top)) {
      const where = frame.url?.startsWith('http') ? `${frame.url.split('/').pop()}:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : '';
      console.log(`${fmt(us, ours.n)}  ${(frame.functionName || '(anonymous)').padEnd(28)} ${where.padEnd(26)} ${await excerpt(sources, frame)}`);
    }
    console.log(`\nTrace of ours: ${TRACE_FILE}`);
  } finally {
    await browser.close();
    await peer.stop();
    await bff.stop();
    await sandbox.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
