import type { Page, Route } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { createBusiness } from './support/applications';
import { test, expect } from './support/fixtures';
import { allSaved, formReady } from './support/form-page';
import { PHONE, expectNoSidewaysScroll } from './support/phone';

/**
 * The page sends the section it opens on and an index of the rest (a large form must be interactive in a
 * quarter of a second); the browser reads the whole form right after. These hold that read back to see the
 * form in between: usable on its first section, honest about the others, and whole once the read lands.
 */

/** Holds the browser's read of the whole form until `release`, or fails it. */
async function holdWholeForm(page: Page) {
  const held: Route[] = [];
  let mode: 'hold' | 'fail' | 'pass' = 'hold';
  await page.route(/\/api\/applications\/[^/]+\/form(\?|$)/, (route) => {
    if (mode === 'pass') return route.continue();
    if (mode === 'fail') return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'upstream_unavailable', message: 'The Portal is unavailable.', request_id: null, details: [] } }) });
    held.push(route);
  });
  return {
    release: async () => {
      mode = 'pass';
      for (const r of held.splice(0)) await r.continue();
    },
    fail: () => void (mode = 'fail'),
    heldCount: () => held.length,
  };
}

test('the first section works while the rest of the form is read; other sections show once it is', async ({ page, baseURL, browserProblems }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Opening Ltd');
  const whole = await holdWholeForm(page);
  await page.goto(`/applications/${applicationId}`);
  await formReady(page);
  await expect.poll(() => whole.heldCount()).toBeGreaterThan(0);

  // The opening section is there and saves, with the whole form still on its way.
  const sections = page.getByRole('navigation', { name: 'Sections' });
  // The business's name, given at its create, is the one answer so far.
  await expect(sections.getByText('of required answers given (1 of 26)')).toBeVisible();
  await expect(page.getByLabel('Legal business name')).toHaveValue('E2E Opening Ltd');
  await page.getByLabel('Legal business name').fill('Opening Holdings Ltd');
  await allSaved(page);
  await expect(sections.getByRole('link', { name: /Business details\s*1 of 10/ })).toBeVisible();

  // Another section says it is loading rather than showing an empty form.
  await sections.getByRole('link', { name: /^Contact/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Loading this section…' })).toBeVisible();
  await expectAccessible(page, 'a section still loading');

  await whole.release();
  await expect(page.getByRole('heading', { level: 2, name: 'Contact' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading this section…' })).toHaveCount(0);
  await page.getByRole('button', { name: '← Business details' }).click();
  await expect(page.getByLabel('Legal business name')).toHaveValue('Opening Holdings Ltd');
  expect(browserProblems).toEqual([]);
});

test('when the rest of the form cannot be read, the page says so and tries again on request', async ({ page, baseURL }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Opening Retry Ltd');
  const whole = await holdWholeForm(page);
  whole.fail();
  await page.setViewportSize(PHONE);
  await page.goto(`/applications/${applicationId}?section=business`);
  await formReady(page);
  await page.getByRole('button', { name: 'Contact →' }).click();
  const problem = page.getByRole('alert').filter({ hasText: 'This section could not be loaded' });
  await expect(problem).toBeVisible({ timeout: 15_000 });
  await expectNoSidewaysScroll(page, 'a section that could not be loaded');
  await expectAccessible(page, 'a section that could not be loaded');

  await whole.release();
  await problem.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Contact' })).toBeVisible();
});

test('a page opened on one section shows the saved answers of the others', async ({ page, baseURL, openContext }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Opening Reader Ltd');
  await page.goto(`/applications/${applicationId}`);
  await formReady(page);
  await page.getByRole('button', { name: 'Contact →' }).click();
  const email = page.getByRole('textbox', { name: /email/i }).first();
  await email.fill('owner@opening.example');
  await allSaved(page);

  // Staff again, in a fresh page opened on the first section: the Contact answer arrives with the whole form.
  const other = await (await openContext({ storageState: await page.context().storageState() })).newPage();
  await other.goto(`/applications/${applicationId}?section=business`);
  await formReady(other);
  await other.getByRole('button', { name: 'Contact →' }).click();
  await expect(other.getByRole('textbox', { name: /email/i }).first()).toHaveValue('owner@opening.example');
});
