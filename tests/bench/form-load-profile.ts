import { chromium } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { spawnSandbox } from './lib/spawn-sandbox';
import { startBff } from './lib/start-bff';
import { chromiumLaunchOptions } from '../e2e/support/chromium';
import { DEMO_KEYS } from '../../server/sandbox/keys';

/**
 * Where the browser's time goes while the large form opens: a CPU profile of one warm navigation to the
 * large-contract application (written to /tmp/form-load.cpuprofile for DevTools), its navigation timing,
 * and the 30 functions with the most self time. A tool for the form-render benchmark's "why".
 */
async function main() {
  const sandbox = await spawnSandbox();
  const apiKey = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;
  const bff = await startBff({ portalBaseUrl: sandbox.baseUrl, portalApiKey: apiKey });
  const browser = await chromium.launch(chromiumLaunchOptions());
  const ctx = await browser.newContext();
  const [n, ...v] = bff.cookie.split('=');
  await ctx.addCookies([{ name: n!, value: v.join('='), url: bff.url }]);
  const page = await ctx.newPage();
  await page.goto(bff.url + '/applications/ciappl_atlaslogistics');
  await page.waitForSelector('form[data-form-ready="true"]');
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await page.goto(bff.url + '/applications/ciappl_atlaslogistics');
  await page.waitForSelector('form[data-form-ready="true"]');
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync('/tmp/form-load.cpuprofile', JSON.stringify(profile));
  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    // No named helpers in here: tsx would wrap them in a __name() the page does not have.
    return {
      ttfb: Math.round(nav.responseStart),
      htmlDone: Math.round(nav.responseEnd),
      domContentLoaded: Math.round(nav.domContentLoadedEventEnd),
      readySeenAt: Math.round(performance.now()),
      htmlDecodedKiB: Math.round(nav.decodedBodySize / 1024),
      // The form's own User Timing (components/intake-form/timing.ts).
      form: Object.fromEntries(
        performance.getEntries().filter((e) => e.name.startsWith('intake:') && (e.entryType === 'measure' || e.entryType === 'mark')).map((e) => [e.name, Math.round((e.entryType === 'mark' ? e.startTime : e.duration) * 10) / 10]),
      ),
    };
  });
  console.log('navigation (ms):', JSON.stringify(timing));
  // self time by function
  console.log('self time while the form opens:');
  console.log(topSelfTime(profile));

  // Typing: 40 keys into the first text input, one at a time.
  const input = page.locator('form input[type="text"]').first();
  await input.focus();
  await cdp.send('Profiler.start');
  for (let k = 0; k < 40; k++) await page.keyboard.press(k % 2 ? 'a' : 'b');
  const typed = await cdp.send('Profiler.stop');
  writeFileSync('/tmp/form-typing.cpuprofile', JSON.stringify(typed.profile));
  console.log('self time while typing 40 keys:');
  console.log(topSelfTime(typed.profile));
  await browser.close();
  await bff.stop();
  await sandbox.stop();
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples?: number[];
  timeDeltas?: number[];
}

/** The functions with the most self time in a profile, as lines "12.3ms name file:line". */
function topSelfTime(profile: CpuProfile, count = 25): string {
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0));
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([k, t]) => `  ${(t / 1000).toFixed(1)} ms  ${k}`)
    .join('\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
