import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS } from '../../server/auth/demo-users';
import { applicationWithRun } from './support/autofill-run';
import { expectAccessible } from './support/axe';
import { expect, test, type OpenContext } from './support/fixtures';
import { expectNoSidewaysScroll, PHONE } from './support/phone';

/**
 * The workspace as each role meets it: staff home (counts by stage, each a link) into the businesses table
 * (search, filter, sort, "Refresh now"); a reviewer's inbox into a review, which names its business, and back.
 * Every state at desktop width and at 360 px (no sideways scrolling), with axe.
 */

const reviewer = DEMO_ACCOUNTS.find((a) => a.role === 'reviewer')!;
const table = (page: Page) => page.getByRole('table');
const header = (page: Page, name: string) => table(page).getByRole('columnheader', { name: new RegExp(`^${name}`) });

async function checked(page: Page, state: string) {
  await expectNoSidewaysScroll(page, state);
  await expectAccessible(page, state);
}

async function reviewerPage(openContext: OpenContext, baseURL: string, viewport: { width: number; height: number }) {
  const context = await openContext({ storageState: { cookies: [], origins: [] }, viewport });
  const page = await context.newPage();
  const signIn = await page.request.post('/api/auth/sign-in', { headers: { 'X-CSRF': '1', Origin: baseURL }, data: { email: reviewer.email, password: reviewer.password } });
  expect(signIn.status()).toBe(200);
  return { context, page };
}

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', PHONE],
] as const) {
  test(`staff home → businesses table: search, filter, sort (${label})`, async ({ page, browserProblems }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 2, name: 'Businesses by stage' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Waiting on the client' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Recently submitted' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Autofill suggestions waiting for review' })).toBeVisible();
    await expect(page.getByText(/Checked against the Portal/)).toBeVisible();
    await checked(page, `staff home is shown (${label})`);

    // A stage's count leads to the table filtered by that stage.
    const stage = page.getByRole('list', { name: /^Stages of / }).getByRole('link').filter({ hasNotText: /\b0$/ }).first();
    const stageName = (await stage.locator('span').first().textContent())!;
    await stage.click();
    await expect(page).toHaveURL(/\/businesses\?stage=bstg_/);
    await expect(page.getByRole('heading', { level: 1, name: 'Businesses' })).toBeVisible();
    await expect(page.getByLabel('Stage')).toHaveValue(/^bstg_/);
    const stageCells = table(page).locator('td[data-label="Stage"]');
    await expect(stageCells.first()).toHaveText(stageName);
    expect(new Set(await stageCells.allTextContents())).toEqual(new Set([stageName]));
    await checked(page, `the table is filtered by stage (${label})`);

    // Search by name, everything else cleared.
    await page.getByRole('link', { name: 'Clear' }).click();
    await expect(page).toHaveURL(/\/businesses$/);
    await page.getByLabel('Name or contact').fill('harbour');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/q=harbour/);
    await expect(table(page).getByRole('link', { name: 'Harbour Street Café', exact: true })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /match/ })).toBeVisible();
    await checked(page, `a search found a business (${label})`);

    // A search that finds nothing says so.
    await page.getByLabel('Name or contact').fill(`nothing-${randomUUID().slice(0, 6)}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText('No business matches these filters.')).toBeVisible();

    // Sort by name: on a wide screen by the column's header, which says how the table is sorted (a second press
    // reverses it); on a phone, where the table becomes cards, by the "Sort by" control.
    await page.goto('/businesses?page_size=100');
    const byName = (x: string, y: string) => x.localeCompare(y, 'en', { sensitivity: 'base' });
    // Businesses without a name come last whichever the order.
    const names = async () =>
      (await table(page).locator('td[data-label="Business"]').allTextContents()).map((n) => n.toLowerCase()).filter((n) => !n.startsWith('unnamed business'));
    if (label === 'desktop') {
      await expect(header(page, 'Last activity')).toHaveAttribute('aria-sort', 'descending');
      await header(page, 'Business').getByRole('link').click();
      await expect(page).toHaveURL(/sort=name&dir=asc/);
      await expect(header(page, 'Business')).toHaveAttribute('aria-sort', 'ascending');
      const ascending = await names();
      expect(ascending).toEqual([...ascending].sort(byName));
      await header(page, 'Business').getByRole('link').click();
      await expect(page).toHaveURL(/sort=name&dir=desc/);
      await expect(header(page, 'Business')).toHaveAttribute('aria-sort', 'descending');
    } else {
      await page.getByLabel('Sort by').selectOption('name');
      await page.getByLabel('Order').selectOption('desc');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page).toHaveURL(/sort=name&dir=desc/);
    }
    const descending = await names();
    expect(descending).toEqual([...descending].sort(byName).reverse());
    await checked(page, `the table is sorted by name (${label})`);

    // Filter by progress and application status together with the sort.
    await page.getByLabel('Progress').selectOption('not_started');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/progress=not_started/);
    await expect(page).toHaveURL(/sort=name/);
    for (const cell of await table(page).locator('td[data-label="Progress"]').allTextContents()) expect(cell).toMatch(/^(0%|—)$/);

    // Refresh now: a reconcile pass, then the page again.
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Up to date with the Portal.' })).toBeVisible({ timeout: 30_000 });
    await checked(page, `the table was refreshed (${label})`);
    expect(browserProblems).toEqual([]);
  });
}

test('a reviewer: the inbox, a review that names its business, and back', async ({ page, openContext, baseURL }) => {
  test.setTimeout(120_000);
  const name = `E2E Inbox ${randomUUID().slice(0, 6)} Ltd`;
  const applicationId = await applicationWithRun(page.request, baseURL!, name, 'Legal name: Inbox Test Ltd\nTrading name: Inbox Café\nEmployees: 4');
  for (const viewport of [{ width: 1280, height: 900 }, PHONE]) {
    const { context, page: r } = await reviewerPage(openContext, baseURL!, viewport);
    const problems: string[] = [];
    r.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    const item = r.getByRole('link', { name: new RegExp(`^Review \\d+ suggestions? for ${name}$`) });
    // The run's webhook reaches the read model, which counts the run's suggestions.
    await expect(async () => {
      await r.goto('/');
      await expect(item).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(r.getByRole('heading', { level: 2, name: 'Review inbox' })).toBeVisible();
    await checked(r, `the reviewer's inbox is shown at ${viewport.width} px`);

    await item.click();
    await expect(r).toHaveURL(new RegExp(`/applications/${applicationId}/review`));
    await expect(r.getByRole('heading', { level: 1, name: 'Review Autofill suggestions' })).toBeVisible();
    await expect(r.getByText(`For ${name}`)).toBeVisible();
    await expect(r.locator('.loading')).toHaveCount(0);
    await checked(r, `the review names its business at ${viewport.width} px`);

    await r.getByRole('link', { name: '← Review inbox' }).click();
    await expect(r.getByRole('heading', { level: 2, name: 'Review inbox' })).toBeVisible();
    expect(problems).toEqual([]);
    await context.close();
  }
});
