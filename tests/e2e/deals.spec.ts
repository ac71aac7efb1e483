import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { createBusiness } from './support/applications';
import { test, expect } from './support/fixtures';
import { fillWholeForm, readDealContract } from './support/form-filler';
import { allSaved, expectFilledAfterReload, formReady, submitAndExpectReadOnly } from './support/form-page';

/**
 * Deals as staff work with them: a deal created for a recipient from a business's deals, moved through its
 * workflow (a move made stale by someone else is explained and retried), its application filled with the
 * contract-driven form and submitted; the deal is then in both lists.
 */

const stepper = (page: Page) => page.getByRole('list', { name: /^Stages of / });

/** Someone else moves the deal through the API, as another tab or colleague would. */
async function moveElsewhere(page: Page, baseURL: string, dealId: string, stageName: string) {
  const read = await page.request.get(`/api/deals/${dealId}`);
  const etag = read.headers().etag!;
  const stages = (await (await page.request.get(`/api/deals/${dealId}/stages`)).json()) as { items: { id: string; name: string }[] };
  const stage = stages.items.find((s) => s.name === stageName)!;
  const res = await page.request.post(`/api/deals/${dealId}/stage-transitions`, {
    headers: { 'X-CSRF': '1', Origin: baseURL, 'If-Match': etag, 'Idempotency-Key': randomUUID() },
    data: { stage_id: stage.id },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test('staff create a deal for a recipient, move it, and fill and submit its application', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const suffix = randomUUID().slice(0, 8);
  const businessName = `E2E Deals ${suffix} Ltd`;
  const dealName = `Machinery finance ${suffix}`;
  const { businessId } = await createBusiness(page.request, baseURL!, businessName);

  // The business's deals: none yet.
  await page.goto(`/deals?business_id=${businessId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Deals of ${businessName}` })).toBeVisible();
  await expect(page.getByText(`${businessName} has no deals yet.`)).toBeVisible();
  await expectAccessible(page, 'a business without deals is listed');

  // Create one, from there: the business is chosen already.
  await page.getByRole('link', { name: `Create a deal for ${businessName}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Create a deal' })).toBeVisible();
  await expect(page.getByLabel('Business')).toHaveValue(businessId);
  await expectAccessible(page, 'the deal form is open');

  await page.getByRole('radio', { name: 'A recipient' }).check();
  await page.getByRole('button', { name: 'Create the deal' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Name the deal.' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Choose the recipient the deal is made for.' })).toBeVisible();
  await expect(page.getByLabel('Deal name')).toBeFocused();
  await expect(page.getByLabel('Deal name')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'the deal form shows its errors');

  await page.getByLabel('Deal name').fill(dealName);
  await page.getByLabel('Recipient', { exact: true }).selectOption({ label: 'Harbour Bank Business Finance' });
  await page.getByRole('button', { name: 'Create the deal' }).click();

  // The deal's page.
  await expect(page).toHaveURL(/\/deals\/deal_[a-z0-9]+\?business_id=/);
  const dealId = /\/deals\/(deal_[a-z0-9]+)/.exec(page.url())![1]!;
  await expect(page.getByRole('heading', { level: 1, name: dealName })).toBeVisible();
  const facts = page.locator('dl.deals-facts').first();
  await expect(facts).toContainText(businessName);
  await expect(facts).toContainText('Harbour Bank Business Finance');
  await expect(stepper(page).locator('li[aria-current="step"]')).toContainText('Draft');
  await expect(page.getByText('Not started')).toBeVisible();
  await expectAccessible(page, 'the new deal is shown');

  // A stage move.
  await page.getByRole('button', { name: 'Move to In review' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Moved to In review.' })).toBeVisible();
  await expect(stepper(page).locator('li[aria-current="step"]')).toContainText('In review');
  await expect(page.getByRole('button', { name: 'Move to In review' })).toHaveCount(0);
  await expectAccessible(page, 'the deal was moved');

  // Someone else moves it meanwhile: the next move is refused (412), explained, and can be made again.
  await moveElsewhere(page, baseURL!, dealId, 'Submitted to recipient');
  await page.getByRole('button', { name: 'Move to Offer made' }).click();
  const conflict = page.getByRole('alert').filter({ hasText: 'Someone moved this deal from In review to Submitted to recipient' });
  await expect(conflict).toBeVisible();
  await expect(conflict).toContainText('your move to Offer made was not made');
  await expect(stepper(page).locator('li[aria-current="step"]')).toContainText('Submitted to recipient');
  await expectAccessible(page, 'a stale move is explained');
  await conflict.getByRole('button', { name: 'Move to Offer made now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Moved to Offer made.' })).toBeVisible();
  await expect(stepper(page).locator('li[aria-current="step"]')).toContainText('Offer made');

  // The deal application, filled whole with the same form renderer, then submitted.
  await page.getByRole('link', { name: 'Open the deal application' }).click();
  await expect(page).toHaveURL(/\/deal-applications\/dapp_[a-z0-9]+/);
  const dealApplicationId = /\/deal-applications\/(dapp_[a-z0-9]+)/.exec(page.url())![1]!;
  await formReady(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Lender application' })).toBeVisible();
  await expect(page.getByRole('link', { name: `← Deal: ${dealName}` })).toBeVisible();
  await expectAccessible(page, 'the empty deal application is open');

  const contract = await readDealContract(page, dealApplicationId);
  const filled = await fillWholeForm(page, contract);
  expect(filled.some((f) => f.field.widget === 'file'), 'a file was attached').toBe(true);
  expect(filled.some((f) => f.path.length === 1), 'an answer in a repeatable item').toBe(true);
  await allSaved(page);
  await expectAccessible(page, 'the deal application is filled');

  await expectFilledAfterReload(page, filled);
  await submitAndExpectReadOnly(page);
  await expectAccessible(page, 'the deal application is submitted');

  // Back on the deal: the application is submitted and whole.
  await page.getByRole('link', { name: `← Deal: ${dealName}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: dealName })).toBeVisible();
  const panel = page.getByRole('region', { name: 'Deal application' });
  await expect(panel).toContainText('Submitted');
  await expect(panel).toContainText('100%');
  await expect(panel.getByRole('link', { name: 'Read the deal application' })).toBeVisible();
  await expectAccessible(page, 'the deal shows its submitted application');

  // The business's deals list it, at its stage, for its recipient.
  await page.getByRole('link', { name: `← Deals of ${businessName}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Deals of ${businessName}` })).toBeVisible();
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: dealName }) });
  await expect(row).toContainText('Harbour Bank Business Finance');
  await expect(row).toContainText('Offer made');
  await expectAccessible(page, 'the business’s deals list the deal');

  // So do all deals, from the main navigation (oldest first: on the last page).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deals' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Deals' })).toBeVisible();
  await expectAccessible(page, 'all deals are listed');
  const link = page.getByRole('link', { name: dealName, exact: true });
  for (let n = 0; n < 50 && (await link.count()) === 0; n++) {
    await page.getByRole('link', { name: 'Next page →' }).click();
    await expect(page).toHaveURL(/cursor=/);
  }
  const overall = page.getByRole('row').filter({ has: link });
  await expect(overall).toContainText('Harbour Bank Business Finance');
  await expect(overall).toContainText('Offer made');
});

test('a deal for the Portal itself, and a page for a deal that does not exist', async ({ page, baseURL }) => {
  const suffix = randomUUID().slice(0, 8);
  const { businessId } = await createBusiness(page.request, baseURL!, `E2E Portal Deal ${suffix} Ltd`);
  await page.goto(`/deals/new?business_id=${businessId}`);
  await page.getByLabel('Deal name').fill(`Portal deal ${suffix}`);
  await expect(page.getByRole('radio', { name: 'The Portal itself' })).toBeChecked();
  await expect(page.getByLabel('Recipient', { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Create the deal' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Portal deal ${suffix}` })).toBeVisible();
  await expect(page.locator('dl.deals-facts').first()).toContainText('Portal');

  await page.goto('/deals/deal_nosuchdeal');
  await expect(page.getByRole('heading', { level: 1, name: 'This page was not found' })).toBeVisible();
  await expectAccessible(page, 'a missing deal');
});
