import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { createBusiness, inviteClient } from './support/applications';
import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectLoaded, expectNoSidewaysScroll, PHONE } from './support/phone';

/**
 * A business page shows its deals (newest first), the documents uploaded for it at create (listed and
 * downloadable) and where its client's invitation stands; the deals list puts the newest first, names each
 * deal's business where it is known, and says "(sample)" once.
 */

const write = (baseURL: string) => ({ 'X-CSRF': '1', Origin: baseURL, 'Idempotency-Key': randomUUID() });

/** A business made through the BFF as the create page makes it, with one document in its first slot. */
async function businessWithDocument(request: APIRequestContext, baseURL: string, name: string, filename: string) {
  const res = await request.post('/api/businesses', {
    headers: write(baseURL),
    data: { name, contact: { full_name: 'Jo Client', email: 'jo@example.test' } },
  });
  expect(res.status(), await res.text()).toBe(201);
  const created = (await res.json()) as { business: { id: string }; application: { id: string }; uploads: { id: string }[] };
  expect(created.uploads.length).toBeGreaterThan(0);
  const upload = await request.post(`/api/businesses/${created.business.id}/uploads/${created.uploads[0]!.id}?filename=${encodeURIComponent(filename)}`, {
    headers: { ...write(baseURL), 'Content-Type': 'text/plain' },
    data: Buffer.from('Turnover for the year: 250,000.00\n'),
  });
  expect(upload.status(), await upload.text()).toBe(201);
  return { businessId: created.business.id, applicationId: created.application.id };
}

async function createDeal(request: APIRequestContext, baseURL: string, businessId: string, name: string) {
  const res = await request.post('/api/deals', { headers: write(baseURL), data: { name, business_id: businessId } });
  expect(res.status(), await res.text()).toBe(201);
}

const factOf = (page: Page, term: string) => page.locator('.biz-status div').filter({ has: page.locator('dt', { hasText: term }) }).locator('dd');

test('a business page: its documents, deals and client invitation', async ({ page, baseURL, browserProblems }) => {
  const name = `E2E Docs ${randomUUID().slice(0, 8)} Ltd`;
  const { businessId, applicationId } = await businessWithDocument(page.request, baseURL!, name, 'turnover.txt');

  await page.goto(`/businesses/${businessId}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expectLoaded(page);

  // The document uploaded at create: what it is, and a download of exactly its bytes.
  const documents = page.getByRole('region', { name: 'Documents' });
  const row = documents.getByRole('row').filter({ hasText: 'turnover.txt' });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell').nth(1)).not.toBeEmpty();
  const downloading = page.waitForEvent('download');
  await row.getByRole('link', { name: 'Download turnover.txt' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('turnover.txt');
  expect(await readFile((await download.path())!, 'utf8')).toBe('Turnover for the year: 250,000.00\n');

  // No invitation and no deal yet, said plainly.
  await expect(factOf(page, 'Client')).toHaveText('Not invited');
  const deals = page.getByRole('region', { name: 'Deals' });
  await expect(deals.getByText('No deals yet.')).toBeVisible();
  await expectAccessible(page, 'a new business with a document, no deal and no invitation');

  // An invitation and a deal made elsewhere show on the next visit.
  await inviteClient(page.request, baseURL!, applicationId);
  await createDeal(page.request, baseURL!, businessId, `${name} – working capital`);
  await page.reload();
  await expectLoaded(page);
  await expect(factOf(page, 'Client')).toHaveText('Invited, not opened yet');
  await expect(deals.getByRole('link', { name: `${name} – working capital` })).toBeVisible();
  await expect(deals.getByRole('link', { name: `Create a deal for ${name}` })).toHaveAttribute('href', `/deals/new?business_id=${businessId}`);
  await expectAccessible(page, 'the business has a deal and an invited client');
  expect(browserProblems).toEqual([]);
});

test('a business page lists its deals newest first, at 360 px too', async ({ page, browserProblems }) => {
  await page.goto('/businesses/biz_pinecrest');
  const deals = page.getByRole('region', { name: 'Deals' });
  const names = deals.getByRole('row').getByRole('link');
  // Seeded: the delivery fleet deal (50 days ago) is newer than the brewhouse purchase (55 days ago).
  await expect(names).toHaveText(['Pinecrest Brewing – delivery fleet', 'Pinecrest Brewing – brewhouse purchase']);
  await expectAccessible(page, 'a business with two deals');

  await page.setViewportSize(PHONE);
  await expect(names).toHaveCount(2);
  await expectNoSidewaysScroll(page, 'a business page with deals is shown on a phone');
  await expectAccessible(page, 'a business with two deals at 360 px');
  expect(browserProblems).toEqual([]);
});

test('the deals list: newest first with the business named, and "(sample)" said once', async ({ page, baseURL, browserProblems }) => {
  const businessName = `E2E Deals List ${randomUUID().slice(0, 8)} Ltd`;
  const { businessId } = await createBusiness(page.request, baseURL!, businessName);
  const dealName = `${businessName} – invoice finance`;
  await createDeal(page.request, baseURL!, businessId, dealName);

  await page.goto('/deals?business_id=biz_pinecrest');
  await expect(page.getByRole('heading', { level: 1, name: /^Deals of / })).toBeVisible();
  const rows = page.getByRole('row').filter({ has: page.getByRole('link', { name: /^Pinecrest Brewing – / }) });
  await expect(rows.first()).toContainText('delivery fleet');
  await expect(rows.nth(1)).toContainText('brewhouse purchase');
  await expect(rows.first().getByRole('cell').nth(1)).toHaveText(/Pinecrest/);
  await expectAccessible(page, 'one business’s deals');

  // A sample deal whose name says so is not marked twice.
  await page.goto('/deals?business_id=biz_sunrisebakery');
  const sample = page.getByRole('row').filter({ has: page.getByRole('link', { name: /deck oven finance/ }) });
  await expect(sample.getByRole('cell').first()).toHaveText('Sunrise Bakery – deck oven finance (sample)');

  // All deals: newest first, each with its business (from the read model, which says how fresh it is).
  await page.goto('/deals');
  await expect(page.getByText(/^(Not yet checked|Checked) against the Portal/)).toBeVisible();
  const created = await page.locator('tbody td[data-label="Created"] time').evaluateAll((ts) => ts.map((t) => Date.parse(t.getAttribute('datetime')!)));
  expect(created.length).toBeGreaterThan(1);
  expect(created).toEqual([...created].sort((a, b) => b - a));
  const ours = page.getByRole('row').filter({ has: page.getByRole('link', { name: dealName }) });
  await expect(ours.getByRole('link', { name: businessName, exact: true })).toHaveAttribute('href', `/businesses/${businessId}`);
  await expectAccessible(page, 'all deals');
  expect(browserProblems).toEqual([]);
});
