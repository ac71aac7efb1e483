import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { allSaved, formReady } from './support/form-page';
import { SANDBOX_ORIGIN_ENV } from './support/paths';

/**
 * Funding recommendations as staff use them (DESIGN.md §6): a project for a demo business with criteria
 * prefilled from its intake application, the rest completed, funders found with a live progress bar, why
 * one does not fit, results going stale when an answer changes and recalculated, two shortlisted and
 * compared, and a deal made from one — at desktop width and on a 360 px phone.
 */

async function expectNoSidewaysScroll(page: Page, state: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `wider than the viewport when ${state}`).toBeLessThanOrEqual(clientWidth);
}

/** axe, and on a phone no sideways scrolling, in this state. */
async function check(page: Page, phone: boolean, state: string) {
  await expectAccessible(page, state);
  if (phone) await expectNoSidewaysScroll(page, state);
}

const question = (page: Page, schemaKey: string) => page.locator(`[data-question="${schemaKey}"]`);
/** Opens a section of the criteria form from its navigation (behind its disclosure button on a phone). */
async function openSection(page: Page, name: RegExp) {
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const toggle = nav.getByRole('button', { name: /^Sections/ });
  if (await toggle.isVisible()) await toggle.click();
  await nav.getByRole('link', { name }).click();
}
const results = (page: Page) => page.getByRole('list', { name: 'Funders, best fit first' });
const card = (page: Page, n: number) => results(page).locator(':scope > li').nth(n);

async function journey(page: Page, phone: boolean) {
  const projectName = `Funding ${randomUUID().slice(0, 8)}`;

  // The business page lists its projects; a new one starts from the intake application.
  await page.goto('/businesses/biz_meridian');
  const funding = page.getByRole('region', { name: 'Funding' });
  await expect(funding.getByRole('heading', { level: 2, name: 'Funding' })).toBeVisible();
  await expect(funding.getByText('Second CNC line and working capital')).toBeVisible();
  await expect(funding.getByText(/Best fit: .+ score \d+/).first()).toBeVisible();
  await check(page, phone, 'the business page shows its funding projects');
  await funding.getByLabel(/Project name/).fill(projectName);
  await funding.getByRole('button', { name: 'New funding project' }).click();

  // The criteria: what the intake application gave is marked, the rest is asked.
  await expect(page).toHaveURL(/\/projects\/proj_[a-z0-9]+$/);
  await expect(page.getByRole('heading', { level: 1, name: projectName })).toBeVisible();
  await formReady(page);
  await expect(question(page, 'funding_amount').getByText('From the intake application')).toBeVisible();
  await expect(question(page, 'funding_amount').locator('input').first()).not.toHaveValue('');
  await expect(question(page, 'funding_currency').getByText('From the intake application')).toHaveCount(0);
  await check(page, phone, 'a new project shows its prefilled criteria');

  await question(page, 'funding_currency').locator('input[value="gbp"]').check();
  await question(page, 'product_kinds').locator('input[value="term_loan"]').check();
  await question(page, 'product_kinds').locator('input[value="equipment_finance"]').check();
  await openSection(page, /^Financial standing/);
  await question(page, 'credit_band').locator('input[value="good"]').check();
  await openSection(page, /^Security/);
  await question(page, 'collateral_types').locator('input[value="equipment"]').check();
  await allSaved(page);
  await expect(page.getByRole('navigation', { name: 'Sections' }).locator('.overall strong')).toHaveText('100%');

  // Find funders: the bar moves with the funders screened, then the ranked results.
  const findFunders = page.getByRole('region', { name: 'Find funders' });
  await findFunders.getByRole('button', { name: 'Find funders' }).click();
  await expect(findFunders.getByRole('progressbar', { name: 'Funders screened' })).toBeVisible();
  await expect(findFunders.getByRole('status').filter({ hasText: /^Finished: \d+ match/ })).toBeVisible({ timeout: 20_000 });
  await expect(card(page, 0)).toBeVisible();
  await check(page, phone, 'the funders are ranked');

  // Why a funder does not fit: each criterion with what it expects and what the criteria say.
  await page.getByLabel('Fit', { exact: true }).selectOption('unlikely');
  const unlikely = card(page, 0);
  await expect(unlikely.getByText('Unlikely fit')).toBeVisible();
  await unlikely.locator('summary').click();
  await expect(unlikely.getByText(/^Not met: /).first()).toBeVisible();
  await expect(unlikely.getByText(/^Expected .+; the criteria say /).first()).toBeVisible();
  await check(page, phone, 'why a funder does not fit is shown');
  await page.getByLabel('Fit', { exact: true }).selectOption('');

  // An answer changes: the results go stale until they are recalculated.
  await openSection(page, /^Financial standing/);
  await question(page, 'credit_band').locator('input[value="fair"]').check();
  await allSaved(page);
  const stale = page.getByRole('alert').filter({ hasText: 'Criteria changed — recalculate.' });
  await expect(stale).toBeVisible({ timeout: 10_000 });
  await check(page, phone, 'the results are stale');
  await stale.getByRole('button', { name: 'Recalculate' }).click();
  await expect(stale).toHaveCount(0, { timeout: 20_000 });
  await expect(findFunders.getByRole('status').filter({ hasText: /^Finished:/ })).toBeVisible({ timeout: 20_000 });

  // Shortlist two (the second with the keyboard) and compare them.
  const first = card(page, 0);
  const second = card(page, 1);
  const firstName = (await first.getByRole('heading', { level: 3 }).innerText()).replace(/^\d+\.\s*/, '');
  await first.getByRole('button', { name: 'Shortlist' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${firstName} shortlisted.` })).toBeVisible();
  await second.getByRole('button', { name: 'Shortlist' }).focus();
  await page.keyboard.press('Enter');
  await expect(second.getByText('Shortlisted', { exact: true })).toBeVisible();
  await first.getByRole('checkbox', { name: 'Compare' }).check();
  await second.getByRole('checkbox', { name: 'Compare' }).check();
  const compare = page.getByRole('region', { name: 'Compare' });
  await expect(compare.getByRole('columnheader')).toHaveCount(2);
  await expect(compare.getByRole('rowheader', { name: 'Score' })).toBeVisible();
  await check(page, phone, 'two shortlisted funders are compared');

  // A deal from the first: its page names the project and the match.
  await first.getByRole('button', { name: 'Create deal' }).click();
  await expect(page).toHaveURL(/\/deals\/deal_[a-z0-9]+\?business_id=biz_meridian$/);
  const match = page.getByRole('region', { name: 'Funding match' });
  await expect(match.getByRole('link', { name: projectName })).toBeVisible();
  await expect(match.getByText(new RegExp(`^${firstName} – `))).toBeVisible();
  await check(page, phone, 'the deal made from a match is shown');
}

test('staff find funders for a project and make a deal from a shortlisted match', async ({ page, browserProblems }) => {
  test.setTimeout(180_000);
  browserProblems.length = 0;
  await journey(page, false);
  expect(browserProblems).toEqual([]);
});

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the same journey on a phone, without sideways scrolling', async ({ page, browserProblems }) => {
    test.setTimeout(180_000);
    browserProblems.length = 0;
    await journey(page, true);
    expect(browserProblems).toEqual([]);
  });
});

for (const [width, viewport] of [
  ['desktop', null],
  ['a 360 px phone', { width: 360, height: 740 }],
] as const) {
  test(`Find funders names the criteria still missing, each linked to its field, on ${width}`, async ({ page, baseURL, browserProblems }) => {
    // Several steps with axe in each: slow on a busy machine.
    test.setTimeout(120_000);
    if (viewport) await page.setViewportSize(viewport);
    const created = await page.request.post('/api/projects', {
      headers: { 'X-CSRF': '1', Origin: baseURL!, 'Idempotency-Key': randomUUID() },
      data: { business_id: 'biz_meridian', name: `Missing ${randomUUID().slice(0, 8)}` },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { project } = (await created.json()) as { project: { id: string } };
    await page.goto(`/projects/${project.id}`);
    await formReady(page);
    const findFunders = page.getByRole('region', { name: 'Find funders' });
    await findFunders.getByRole('button', { name: 'Find funders' }).click();
    const missing = page.getByRole('alert').filter({ hasText: 'missing or need attention before funders can be found' });
    await expect(missing).toBeFocused();
    await expect(missing.getByRole('link', { name: 'Currency', exact: true })).toBeVisible();
    await expect(missing.getByRole('link', { name: 'Which kinds of funding would suit?' })).toBeVisible();
    await expect(findFunders.getByText(/\(\d+ missing\)/)).toHaveCount(0);
    await check(page, !!viewport, `the missing criteria are listed on ${width}`);

    // A link opens the field.
    await missing.getByRole('link', { name: 'Currency', exact: true }).click();
    await expect(question(page, 'funding_currency').getByRole('radio').first()).toBeFocused();
    // The currency's choices read as the contract writes them (not "Gbp").
    await expect(question(page, 'funding_currency').getByRole('radio', { name: 'GBP', exact: true })).toBeVisible();
    expect(browserProblems).toEqual([]);
  });
}

/** A project of Meridian's whose criteria are complete (the intake's answers and four more), made through the BFF. */
async function readyProject(request: APIRequestContext, baseURL: string) {
  const headers = { 'X-CSRF': '1', Origin: baseURL };
  const created = await request.post('/api/projects', {
    headers: { ...headers, 'Idempotency-Key': randomUUID() },
    data: { business_id: 'biz_meridian', name: `Progress ${randomUUID().slice(0, 8)}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { project } = (await created.json()) as { project: { id: string } };
  const answers = (await (await request.get(`/api/projects/${project.id}/criteria/answers?page_size=500`)).json()) as { etag: string; answers_revision: number };
  const write = (key: string, value: unknown) => ({ block_key: key, schema_key: key, field_key: 'value', value });
  const saved = await request.patch(`/api/projects/${project.id}/criteria/answers`, {
    headers: { ...headers, 'If-Match': answers.etag },
    data: {
      answers_revision: answers.answers_revision,
      answers: [write('funding_currency', 'gbp'), write('product_kinds', ['term_loan', 'equipment_finance']), write('credit_band', 'good'), write('collateral_types', ['equipment'])],
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  return project.id;
}

/** Slows this project's match runs only (the sandbox's test control), so a run lasts long enough to watch. */
async function slowRuns(projectId: string, funderMs: number) {
  const res = await fetch(`${process.env[SANDBOX_ORIGIN_ENV]}/_sandbox/matching`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ project_id: projectId, funder_ms: funderMs }),
  });
  expect(res.status, await res.text()).toBe(200);
}

/** Keeps every value the "Funders screened" bar takes, from now on (read in the page, so none is missed between checks). */
async function recordBar(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { barValues: number[] };
    w.barValues = [];
    setInterval(() => {
      const bar = document.querySelector<HTMLProgressElement>('progress[aria-label="Funders screened"]');
      if (bar && bar.value !== w.barValues.at(-1)) w.barValues.push(bar.value);
    }, 20);
  });
  return () => page.evaluate(() => (window as unknown as { barValues: number[] }).barValues);
}

/**
 * Opens the project's page with no run yet, then from that moment keeps the bar's values and the page's GET
 * reads of the project's runs.
 */
async function openWithoutRun(page: Page, projectId: string) {
  await page.goto(`/projects/${projectId}`);
  const findFunders = page.getByRole('region', { name: 'Find funders' });
  // The run's own status line (the region's other status says what is loading).
  const status = findFunders.getByRole('status').and(page.locator('#funding-run-step'));
  await expect(status).toHaveText('No run yet.');
  return { findFunders, status, bar: await recordBar(page), reads: runReads(page) };
}

/** GET reads of the project's runs the page makes from now on. */
function runReads(page: Page) {
  const reads: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && /\/api\/projects\/proj_[a-z0-9]+\/runs(?:[/?]|$)/.test(r.url())) reads.push(r.url());
  });
  return reads;
}

test.describe('the Find funders progress bar', () => {
  test('moves with the run’s live events, without reading the run while it works', async ({ page, baseURL, browserProblems }) => {
    test.setTimeout(90_000);
    browserProblems.length = 0;
    const projectId = await readyProject(page.request, baseURL!);
    // Two funders every 300 ms: about 5 s of screening, announced at most once a second.
    await slowRuns(projectId, 150);
    const stream = page.waitForResponse((r) => r.url().includes(`/api/events?project_id=${projectId}`));
    const { findFunders, status, bar, reads } = await openWithoutRun(page, projectId);
    expect((await stream).status()).toBe(200);

    await findFunders.getByRole('button', { name: 'Find funders' }).click();
    await expect(status).toHaveText(/^Screening funders: ([1-9]|[12]\d) of 30 done\.$/, { timeout: 20_000 });
    await expectAccessible(page, 'a run is screening funders');
    await expect(status).toHaveText(/^Finished: \d+ match/, { timeout: 30_000 });

    const values = await bar();
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(values.filter((v) => v > 0 && v < 30).length, `bar values ${values.join(', ')}`).toBeGreaterThanOrEqual(2);
    expect(values.at(-1)).toBe(30);
    // The bar moved on events alone: the run was read once at most, when its end was announced.
    expect(reads.length, reads.join('\n')).toBeLessThanOrEqual(1);
    await expect(findFunders.getByText(/Live updates are not reaching this page/)).toHaveCount(0);
    expect(browserProblems).toEqual([]);
  });

  test('falls back to reading the run, and says so, while live updates are down', async ({ page, baseURL, browserProblems }) => {
    test.setTimeout(90_000);
    browserProblems.length = 0;
    const projectId = await readyProject(page.request, baseURL!);
    await slowRuns(projectId, 100);
    // The app's stream refuses every connection: no event reaches the page.
    await page.route('**/api/events?**', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'unavailable', message: 'Live updates are down.' } }) }),
    );
    const { findFunders, status, bar, reads } = await openWithoutRun(page, projectId);

    await findFunders.getByRole('button', { name: 'Find funders' }).click();
    await expect(findFunders.getByText('Live updates are not reaching this page: the run is checked every second instead.')).toBeVisible();
    await expectAccessible(page, 'live updates are down while a run works');
    await expect(status).toHaveText(/^Finished: \d+ match/, { timeout: 30_000 });
    await expect(findFunders.getByText(/Live updates are not reaching this page/)).toHaveCount(0);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect((await bar()).filter((v) => v > 0 && v < 30).length).toBeGreaterThanOrEqual(1);
    // The only problems are the refused stream's.
    expect(browserProblems.filter((p) => !`${p.text} ${p.location ?? ''}`.includes('/api/events') && !p.text.includes('503'))).toEqual([]);
  });
});
