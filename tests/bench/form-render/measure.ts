// In-browser measurements of the form render benchmark, the same for our form and for the peer:
// navigation → interactive, keystroke → next paint, and the JavaScript a navigation loads.
import type { Browser, BrowserContext, Page } from '@playwright/test';

export interface Target {
  label: string;
  url: string;
  /** Cookies to put in each fresh browser context (our session). */
  cookies: { name: string; value: string; url: string }[];
  /** The form's "hydrated and interactive" mark. */
  readySelector: string;
  /** The field typed into; the first text input of the form when it matches nothing. */
  fieldSelector: string;
}

export interface NavigationSample {
  /** ms from navigation start until the ready mark exists and a text input of the form takes focus. */
  interactive: number;
  /** ms from navigation start until the ready mark was first seen. */
  ready: number;
  ttfb: number;
  domContentLoaded: number;
  firstContentfulPaint: number | null;
  /** Form controls (input, select, textarea) in the ready form, and the page's DOM size. */
  controls: number;
  domNodes: number;
}

export interface ScriptBytes {
  count: number;
  /** Bytes as transferred (compressed), and as decoded, summed over the navigation's script resources. */
  encoded: number;
  decoded: number;
  urls: string[];
  /** Each script as transferred and decoded, in load order (which chunks a page loads, and their weight). */
  files: { path: string; encoded: number; decoded: number }[];
}

/** What the page itself transferred: the HTML document and any JSON / RSC data fetched during load. */
export interface DataBytes {
  documentEncoded: number;
  documentDecoded: number;
  fetchEncoded: number;
  fetchDecoded: number;
}

declare global {
  interface Window {
    __formBench?: ProbeState;
  }
}

interface ProbeState {
  fcp: number | null;
  interactiveAt: number | null;
  readyAt: number | null;
  keyStart: number | null;
  samples: number[];
}

/**
 * Runs in the page before any of its scripts (context.addInitScript). It watches for the ready mark with a
 * MutationObserver (attribute set on an existing form) and a requestAnimationFrame poll (a form inserted with it),
 * and once seen, checks that the form's first text input takes focus: that moment, as performance.now() (ms since
 * navigation start, the time origin of the document), is "interactive".
 *
 * Keystroke → paint: on keydown (capture) it keeps event.timeStamp; on the input event that key causes it asks for
 * the next animation frame and, in that frame's callback, posts a MessageChannel message, whose handler runs as the
 * first task after the frame, i.e. after style, layout and paint of the frame that shows the character. The time
 * from keydown to that handler is the sample. This is the usual "next paint" approximation: it needs no
 * instrumentation of either form, includes every synchronous handler (ours, React's, rjsf's validation) and the
 * rendering work they cause, and does not depend on the Event Timing API's 8 ms rounding and 16 ms threshold.
 */
function installProbe(opts: { readySelector: string }) {
  const state: ProbeState = { fcp: null, interactiveAt: null, readyAt: null, keyStart: null, samples: [] };
  window.__formBench = state;
  performance.setResourceTimingBufferSize(5000);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') state.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  const check = (): boolean => {
    if (state.interactiveAt !== null) return true;
    const form = document.querySelector(opts.readySelector);
    if (!form) return false;
    state.readyAt ??= performance.now();
    const input = form.querySelector<HTMLInputElement>('input[type="text"], input:not([type])');
    if (!input) return false;
    input.focus({ preventScroll: true });
    if (document.activeElement !== input) return false;
    state.interactiveAt = performance.now();
    observer.disconnect();
    return true;
  };
  const observer = new MutationObserver(() => void check());
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-form-ready'] });
  const tick = () => {
    if (!check()) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);

  addEventListener('keydown', (e) => (state.keyStart = e.timeStamp), true);
  addEventListener(
    'input',
    () => {
      const start = state.keyStart;
      if (start === null) return;
      state.keyStart = null;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => state.samples.push(performance.now() - start);
        channel.port2.postMessage(null);
      });
    },
    true,
  );
}

async function freshPage(browser: Browser, target: Target): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (target.cookies.length) await context.addCookies(target.cookies);
  // tsx compiles this file with esbuild's keepNames, which wraps inner functions in __name(...): the functions
  // serialized into the page (the probe, page.evaluate bodies) need that helper there.
  await context.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
  await context.addInitScript(installProbe, { readySelector: target.readySelector });
  const page = await context.newPage();
  return { context, page };
}

async function waitInteractive(page: Page, target: Target, timeoutMs: number) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.waitForFunction(() => window.__formBench?.interactiveAt != null, undefined, { timeout: timeoutMs, polling: 50 });
  } catch (e) {
    const state = await page.evaluate(() => ({
      readyAt: window.__formBench?.readyAt ?? null,
      forms: document.querySelectorAll('form').length,
      title: document.title,
      url: location.href,
      peerError: document.body?.getAttribute('data-peer-error') ?? null,
    }));
    throw new Error(
      `${target.label}: no interactive form within ${timeoutMs} ms at ${state.url} (title "${state.title}", ${state.forms} form(s), ` +
        `ready mark ${state.readyAt === null ? 'never seen' : `seen at ${state.readyAt.toFixed(0)} ms but no text input took focus`}` +
        `${state.peerError ? `, peer error: ${state.peerError}` : ''}${errors.length ? `, page errors: ${errors.join(' | ')}` : ''}): ${(e as Error).message}`,
    );
  }
}

/** One cold navigation (fresh context: empty HTTP cache, no code cache) to the target, measured in the page. */
export async function measureNavigation(
  browser: Browser,
  target: Target,
  timeoutMs: number,
  settleMs: number,
): Promise<{ sample: NavigationSample; scripts: ScriptBytes; data: DataBytes }> {
  const { context, page } = await freshPage(browser, target);
  try {
    const response = await page.goto(target.url, { waitUntil: 'commit', timeout: timeoutMs });
    if (!response || response.status() !== 200) throw new Error(`${target.label}: GET ${target.url} → ${response?.status() ?? 'no response'}`);
    await waitInteractive(page, target, timeoutMs);
    // Whatever the page loads just after it becomes interactive still counts as its first-load JavaScript.
    await page.waitForLoadState('load', { timeout: timeoutMs });
    await page.waitForTimeout(settleMs);
    return await page.evaluate((readySelector) => {
      const s = window.__formBench!;
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const fcp = s.fcp ?? performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const isScript = (r: PerformanceResourceTiming) => r.initiatorType === 'script' || /\.m?js$/.test(new URL(r.name).pathname);
      const scripts = resources.filter(isScript);
      const fetches = resources.filter((r) => !isScript(r) && ['fetch', 'xmlhttprequest', 'link', 'other'].includes(r.initiatorType));
      const sum = (rs: PerformanceResourceTiming[], k: 'encodedBodySize' | 'decodedBodySize') => rs.reduce((n, r) => n + r[k], 0);
      const form = document.querySelector(readySelector);
      return {
        sample: {
          interactive: s.interactiveAt!,
          ready: s.readyAt!,
          ttfb: nav.responseStart,
          domContentLoaded: nav.domContentLoadedEventEnd,
          firstContentfulPaint: fcp,
          controls: form?.querySelectorAll('input, select, textarea').length ?? 0,
          domNodes: document.getElementsByTagName('*').length,
        },
        scripts: {
          count: scripts.length,
          encoded: sum(scripts, 'encodedBodySize'),
          decoded: sum(scripts, 'decodedBodySize'),
          urls: scripts.map((r) => new URL(r.name).pathname),
          files: scripts.map((r) => ({ path: new URL(r.name).pathname, encoded: r.encodedBodySize, decoded: r.decodedBodySize })),
        },
        data: {
          documentEncoded: nav.encodedBodySize,
          documentDecoded: nav.decodedBodySize,
          fetchEncoded: sum(fetches, 'encodedBodySize'),
          fetchDecoded: sum(fetches, 'decodedBodySize'),
        },
      };
    }, target.readySelector);
  } finally {
    await context.close();
  }
}

export interface KeystrokeResult {
  samples: number[];
  /** How the typed-into field was found, for the report. */
  field: string;
}

const KEYS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Opens the target in a fresh context, waits until interactive and idle, focuses the field (caret at the end) and
 * presses `warmup + keys` keys with real input events, one at a time: each waits for its sample (keystroke → next
 * paint) and then `gapMs` (typing speed) before the next. The first `warmup` samples are dropped.
 */
export async function measureKeystrokes(
  browser: Browser,
  target: Target,
  o: { keys: number; warmup: number; gapMs: number; timeoutMs: number; settleMs: number },
): Promise<KeystrokeResult> {
  const { context, page } = await freshPage(browser, target);
  try {
    await page.goto(target.url, { waitUntil: 'load', timeout: o.timeoutMs });
    await waitInteractive(page, target, o.timeoutMs);
    await page.waitForTimeout(o.settleMs);
    const form = page.locator(target.readySelector);
    let field = form.locator(target.fieldSelector).first();
    let described = target.fieldSelector;
    if ((await field.count()) === 0) {
      field = form.locator('input[type="text"]').first();
      described = `first input[type="text"] (${target.fieldSelector} matched nothing)`;
    }
    const name = await field.evaluate((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('name') ? `[name="${el.getAttribute('name')}"]` : ''}`);
    await field.scrollIntoViewIfNeeded();
    await field.focus();
    await page.keyboard.press('End');
    await page.evaluate(() => {
      window.__formBench!.samples = [];
      window.__formBench!.keyStart = null;
    });
    const total = o.warmup + o.keys;
    for (let i = 0; i < total; i++) {
      await page.keyboard.press(KEYS[i % KEYS.length]!);
      await page.waitForFunction((n) => (window.__formBench?.samples.length ?? 0) > n, i, { timeout: o.timeoutMs, polling: 'raf' });
      if (o.gapMs > 0) await page.waitForTimeout(o.gapMs);
    }
    const samples = await page.evaluate(() => window.__formBench!.samples.slice());
    const focused = await field.evaluate((el) => el === document.activeElement);
    if (!focused) throw new Error(`${target.label}: the field ${name} lost focus while typing`);
    return { samples: samples.slice(o.warmup), field: `${name} via ${described}` };
  } finally {
    await context.close();
  }
}
