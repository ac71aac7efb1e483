import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { createBusiness } from './support/applications';
import { test, expect } from './support/fixtures';
import { allSaved, formReady } from './support/form-page';
import { PHONE, expectNoSidewaysScroll } from './support/phone';

/**
 * An answer typed just before the person leaves the form is sent, or kept on the device and sent when the form
 * is next opened, whatever the way out (a link of the app, the back button, a full load of another section),
 * and the save status never says saved before the Portal has it. A date the browser cannot read is held with
 * a message, never sent as an empty answer.
 */

const WIDTHS = [
  ['desktop', { width: 1280, height: 720 }],
  ['phone', PHONE],
] as const;

/** What the Portal holds for a top-level answer, read through the app as staff. */
async function portalAnswer(request: APIRequestContext, applicationId: string, schemaKey: string): Promise<unknown> {
  const res = await request.get(`/api/applications/${applicationId}/answers?page_size=500`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { items: { schema_key: string; value: unknown }[] };
  return body.items.find((a) => a.schema_key === schemaKey)?.value ?? null;
}

/** The edits this device keeps for the application (the form's own storage key ends with its id). */
const deviceCopy = (page: Page, applicationId: string) =>
  page.evaluate((id) => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('intake-form:') && k.endsWith(`:${id}`));
    return key === undefined ? null : localStorage.getItem(key);
  }, applicationId);

const statusLine = (page: Page) => page.locator('.save-status').getByRole('status');

/** Opens a section through the section navigation (a menu behind one button on a phone). */
async function openSection(page: Page, name: RegExp) {
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const toggle = nav.getByRole('button', { name: /^Sections/ });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await nav.getByRole('link', { name }).click();
}

const contactName = (page: Page) => page.getByRole('textbox', { name: /^Contact name/ });

/**
 * Types 02/31/2026 as a person does, into the browser's own fields of a date input: month first (as Chromium
 * shows it here), or day first where its locale says so; the saved date is put back between the two tries.
 */
async function typeImpossibleDate(page: Page, date: Locator) {
  for (const keys of ['02312026', '31022026']) {
    await date.focus();
    await page.keyboard.type(keys);
    if (await date.evaluate((el: HTMLInputElement) => el.value === '' && el.validity.badInput)) return;
    await date.fill('2026-03-31');
    await allSaved(page);
  }
  throw new Error('the date input took both 02/31/2026 and 31/02/2026 for dates');
}

for (const [label, viewport] of WIDTHS) {
  test.describe(label, () => {
    test.use({ viewport });
    // Several page loads and axe runs each, on a machine that may be busy.
    test.describe.configure({ timeout: 120_000 });

    test(`an answer typed just before following a link of the app reaches the Portal (${label})`, async ({ page, baseURL, browserProblems }) => {
      const { applicationId } = await createBusiness(page.request, baseURL!, `E2E Leave Link ${label} Ltd`);
      await page.goto(`/applications/${applicationId}?section=contact`);
      await formReady(page);

      await contactName(page).fill('Left By Link');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Businesses' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Businesses' })).toBeVisible();
      await expect.poll(() => portalAnswer(page.request, applicationId, 'contact_name'), { timeout: 15_000 }).toBe('Left By Link');
      // Nothing is left on the device once the Portal has it.
      await expect.poll(() => deviceCopy(page, applicationId)).toBeNull();
      await expectAccessible(page, `the businesses page after leaving the form (${label})`);

      // Opened again (on another section), the form shows it, with nothing left to save.
      await page.goto(`/applications/${applicationId}`);
      await formReady(page);
      await openSection(page, /^Contact/);
      await expect(contactName(page)).toHaveValue('Left By Link');
      await expect(statusLine(page)).toHaveText('Answers save automatically as you type.');
      await expectNoSidewaysScroll(page, `the form opened again (${label})`);
      expect(browserProblems).toEqual([]);
    });

    test(`an answer typed just before the back button reaches the Portal (${label})`, async ({ page, baseURL, browserProblems }) => {
      const { applicationId, businessId } = await createBusiness(page.request, baseURL!, `E2E Leave Back ${label} Ltd`);
      await page.goto(`/businesses/${businessId}`);
      await page.getByRole('link', { name: 'Open the application form' }).click();
      await formReady(page);
      await openSection(page, /^Contact/);

      await contactName(page).fill('Left By Back');
      await page.goBack();
      await expect(page.getByRole('heading', { level: 1, name: `E2E Leave Back ${label} Ltd` })).toBeVisible();
      await expect.poll(() => portalAnswer(page.request, applicationId, 'contact_name'), { timeout: 15_000 }).toBe('Left By Back');
      await expect.poll(() => deviceCopy(page, applicationId)).toBeNull();
      await expectAccessible(page, `the business page after going back (${label})`);
      expect(browserProblems).toEqual([]);
    });

    test(`an unsent answer kept on the device is sent when another section is loaded, and not called saved before (${label})`, async ({ page, baseURL, browserProblems }) => {
      const { applicationId } = await createBusiness(page.request, baseURL!, `E2E Leave Load ${label} Ltd`);
      await page.goto(`/applications/${applicationId}?section=contact`);
      await formReady(page);

      // The next page's writes wait until the status has been read, so "saved" cannot be true yet.
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let held = 0;
      await page.route(
        (url) => url.pathname === `/api/applications/${applicationId}/answers`,
        async (route) => {
          if (route.request().method() !== 'PATCH') return route.fallback();
          held++;
          await released;
          await route.fallback();
        },
      );

      await contactName(page).fill('Left By Load');
      await page.goto(`/applications/${applicationId}?section=funding`);
      await formReady(page);
      await expect.poll(() => held, { timeout: 15_000 }).toBeGreaterThan(0);
      await expect(statusLine(page)).toHaveText('Saving…');
      await expect(page.getByText('All changes saved.')).toHaveCount(0);
      await expectAccessible(page, `another section while a kept answer is sent (${label})`);
      release();

      await allSaved(page);
      await expect.poll(() => portalAnswer(page.request, applicationId, 'contact_name'), { timeout: 15_000 }).toBe('Left By Load');
      await expect.poll(() => deviceCopy(page, applicationId)).toBeNull();
      await openSection(page, /^Contact/);
      await expect(contactName(page)).toHaveValue('Left By Load');
      await expectNoSidewaysScroll(page, `the kept answer is back (${label})`);
      expect(browserProblems).toEqual([]);
    });

    test(`a date that does not exist is held as not a valid date and never erases the saved one (${label})`, async ({ page, baseURL, browserProblems }) => {
      const { applicationId } = await createBusiness(page.request, baseURL!, `E2E Bad Date ${label} Ltd`);
      await page.goto(`/applications/${applicationId}?section=financials`);
      await formReady(page);
      const date = page.getByLabel(/^End of the last financial year/);
      await date.fill('2026-03-31');
      await allSaved(page);
      await expect.poll(() => portalAnswer(page.request, applicationId, 'financial_year_end'), { timeout: 15_000 }).toBe('2026-03-31');

      await typeImpossibleDate(page, date);
      await date.blur();
      const message = 'Not a valid date: check the day, month and year.';
      await expect(page.locator('[data-field="a.financial_year_end.financial_year_end.value"] .field-error')).toHaveText(message);
      await expect(date).toHaveAttribute('aria-invalid', 'true');
      await expect(statusLine(page)).toHaveText('One answer not saved — fix it:');
      await expect(page.getByRole('list', { name: 'Answers not saved' })).toContainText(`End of the last financial year: ${message}`);
      await expectAccessible(page, `an impossible date is held (${label})`);

      // Another answer typed after it reaches the Portal: a write went out since, and the date was not in it.
      await page.getByRole('textbox', { name: /^Annual revenue/ }).fill('1250000');
      await expect.poll(() => portalAnswer(page.request, applicationId, 'annual_revenue'), { timeout: 15_000 }).toBe(1250000);
      expect(await portalAnswer(page.request, applicationId, 'financial_year_end')).toBe('2026-03-31');

      // After a reload it is still held, with its reason; a real date then saves.
      await page.reload();
      await formReady(page);
      await expect(statusLine(page)).toHaveText('One answer not saved — fix it:');
      await expect(page.locator('[data-field="a.financial_year_end.financial_year_end.value"] .field-error')).toHaveText(message);
      expect(await portalAnswer(page.request, applicationId, 'financial_year_end')).toBe('2026-03-31');
      await date.fill('2026-02-28');
      await allSaved(page);
      await expect.poll(() => portalAnswer(page.request, applicationId, 'financial_year_end'), { timeout: 15_000 }).toBe('2026-02-28');
      await expectNoSidewaysScroll(page, `a held date (${label})`);
      expect(browserProblems).toEqual([]);
    });
  });
}
