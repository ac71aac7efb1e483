import { createBusiness } from './support/applications';
import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';
import { allSaved, formReady } from './support/form-page';
import { expectNoSidewaysScroll, PHONE } from './support/phone';

/**
 * Fields as the browser shows them: a date's example is written the way the date box writes dates (the
 * browser's language: en-GB here), and a two-letter country code is chosen from the countries by name.
 */

for (const [width, viewport] of [
  ['desktop', null],
  ['a 360 px phone', PHONE],
] as const) {
  test(`date examples as the date box shows them; the country chosen by name, on ${width}`, async ({ page, baseURL, browserProblems }) => {
    // Several steps with axe in each: slow on a busy machine.
    test.setTimeout(120_000);
    if (viewport) await page.setViewportSize(viewport);
    const { applicationId } = await createBusiness(page.request, baseURL!, `E2E Formats ${width} Ltd`);
    await page.goto(`/applications/${applicationId}?section=business`);
    await formReady(page, { timeout: 30_000 });

    // The contract's example is 2016-04-01; the en-GB date box shows dd/mm/yyyy.
    const started = page.locator('[data-question="date_established"]');
    await expect(started.locator('.field-hint')).toHaveText('For example: 01/04/2016');

    // Country: a choice of countries by name, not a two-letter box.
    const address = page.locator('[data-question="business_address"]');
    const country = address.getByRole('combobox', { name: /^Country/ });
    await expect(country).toBeVisible();
    await expect(country.getByRole('option', { name: 'United Kingdom', exact: true })).toBeAttached();
    await country.selectOption({ label: 'United Kingdom' });
    await allSaved(page);
    await expectAccessible(page, `the business section with a country chosen on ${width}`);
    if (viewport) await expectNoSidewaysScroll(page, 'a country was chosen');

    // The Portal has the code, and the form shows it by name again after a reload.
    const answers = (await (await page.request.get(`/api/applications/${applicationId}/answers?page_size=500`)).json()) as {
      items: Array<{ schema_key: string; field_key: string; value: unknown }>;
    };
    expect(answers.items.find((a) => a.schema_key === 'business_address' && a.field_key === 'country')?.value).toBe('GB');
    await page.reload();
    await formReady(page, { timeout: 30_000 });
    await expect(country.locator('option:checked')).toHaveText('United Kingdom');
    expect(browserProblems).toEqual([]);
  });
}
