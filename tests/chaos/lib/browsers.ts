// Real browsers in the chaos run: Chromium (Playwright as a library) with a signed-in person each, typing into
// the same application's form as everyone else. A save counts once the form sent the value and then said "All
// changes saved." (the Portal's answers at the end prove it); each keeps a field of its own, so its saves are
// ordered by time.
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/support/chromium';
import { signIn, newStats, type Ack, type EditorStats } from './editor';
import type { AppInstance, ChaosStack } from './stack';

/** Fields in the form's first section, none of which the simulated editors write. */
export const BROWSER_FIELDS = [
  { field: 'trading_name', label: 'Trading name' },
  { field: 'business_description', label: 'What does the business do?' },
] as const;

export interface BrowserRun {
  acks: Ack[];
  stats: EditorStats;
  /** Console errors other than the failed requests the faults cause. */
  consoleErrors: string[];
}

const isAnswersWrite = (url: string, method: string) => method === 'PATCH' && /\/api\/applications\/[^/]+\/answers$/.test(new URL(url).pathname);

async function openForm(browser: Browser, app: AppInstance, cookie: string, applicationId: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: app.url });
  const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
  await context.addCookies([{ name, value, url: app.url }]);
  const page = await context.newPage();
  await page.goto(`/applications/${applicationId}`);
  // The page reads the form before it answers: when the faults defeat that read, it is the error page (a 500),
  // and a person presses "Try again", which reads it again. An opening makes about ten Portal reads, each of which
  // the faults defeat now and then (three attempts, 30 % of requests faulted), so a few failed tries in a row happen
  // in some runs; the run is about edits under faults, and a person would keep pressing.
  const ready = page.locator('form[data-form-ready="true"]');
  const retry = page.getByRole('button', { name: 'Try again' });
  for (let tries = 1; ; tries++) {
    await ready.or(retry).first().waitFor({ timeout: 60_000 });
    if (await ready.isVisible()) return page;
    if (tries === 20) throw new Error(`the form of ${applicationId} could not be opened in ${tries} tries`);
    await retry.click();
  }
}

/** Opens `count` browsers on `app` and has each type `edits` values into its own field, one save at a time. */
export async function runBrowsers(stack: ChaosStack, app: AppInstance, applicationId: string, o: { count: number; edits: number }): Promise<BrowserRun> {
  const browser = await chromium.launch(chromiumLaunchOptions());
  const run: BrowserRun = { acks: [], stats: newStats(), consoleErrors: [] };
  try {
    const outcomes = await Promise.allSettled(
      BROWSER_FIELDS.slice(0, o.count).map(async ({ field, label }, n) => {
        const name = `browser-${n + 1}`;
        const { email, password } = await stack.newStaff(name);
        const page = await openForm(browser, app, await signIn(app.url, email, password), applicationId);
        page.on('response', (r) => {
          if (isAnswersWrite(r.url(), r.request().method()) && (r.status() === 429 || r.status() >= 500)) run.stats.errorsShown += 1;
        });
        page.on('console', (m) => {
          // A refused request is logged by Chromium itself; the faults make those on purpose.
          if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) run.consoleErrors.push(`${name}: ${m.text()}`);
        });
        // The accessible name starts with the label (hints and marks may follow).
        const box = page.getByRole('textbox', { name: new RegExp(`^${label.replace(/[?.]/g, '\\$&')}`) });
        for (let i = 1; i <= o.edits; i++) {
          const value = `${name} typed ${i}`;
          run.stats.sent += 1;
          const started = performance.now();
          // The form's save carrying the value; its answer may be 200, or a 412 whose current answers already hold
          // it (the write landed, its reply was lost, the app's retry met it): the form then says saved, and so it is.
          const sent = page.waitForRequest((r) => isAnswersWrite(r.url(), r.method()) && (r.postData() ?? '').includes(value), { timeout: 120_000 });
          try {
            await Promise.all([sent.then((r) => r.response()), box.fill(value)]);
            await page.getByRole('status').filter({ hasText: 'All changes saved.' }).waitFor({ timeout: 120_000 });
          } catch (e) {
            const status = await page.getByRole('status').allInnerTexts().catch(() => []);
            const shown = await box.inputValue().catch(() => '?');
            throw new Error(`${name}: ${value} was not saved; the box holds ${JSON.stringify(shown)}, the form says ${JSON.stringify(status)}: ${String(e)}`);
          }
          run.stats.acknowledged += 1;
          run.stats.latenciesMs.push(performance.now() - started);
          run.acks.push({ editor: name, field, value, order: i });
        }
      }),
    );
    const failed = outcomes.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    await browser.close();
  }
  return run;
}
