import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { FUNDING_UNAVAILABLE } from '../../../lib/bff/portal-features';
import { createBusiness } from '../support/applications';
import { applicationWithRun } from '../support/autofill-run';
import { expectAccessible } from '../support/axe';
import { expect, test, type BrowserProblem } from '../support/fixtures';
import { TINY_PDF } from '../support/form-filler';
import { allSaved, formReady } from '../support/form-page';
import { expectLoaded, expectNoSidewaysScroll, PHONE } from '../support/phone';

/**
 * The main journeys against an app whose Portal is the sandbox's strict profile: only what the spec guarantees
 * (no pipeline or recipient lists, no funding, no filters beyond paging, pages of at most 100, a lean API root,
 * stage items of {id, name}, no ETag on the answers). Each page shows what it can and says what this Portal does
 * not offer; none is an error page, none logs a console error, and the app never asks for what is not offered.
 */

// Journeys of several pages, each checked with axe: more than the default 30 s on a machine shared with other work.
test.describe.configure({ timeout: 120_000 });

const NOT_OFFERED = ['/api/recipients', '/api/projects', '/api/business-pipelines', '/api/deal-pipelines'];

/** The app's own requests for features this Portal does not offer (none should be made). */
function watchRequests(page: Page) {
  const asked: string[] = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (NOT_OFFERED.some((p) => pathname.startsWith(p))) asked.push(pathname);
  });
  return asked;
}

async function expectNoErrorPage(page: Page) {
  await expect(page.getByRole('heading', { name: /could not be (shown|found|loaded)/i })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
}

const expectNoProblems = (problems: BrowserProblem[]) => expect(problems, 'console errors and page errors').toEqual([]);

test('staff home, the businesses table and the board', async ({ page, browserProblems }) => {
  const asked = watchRequests(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 2, name: 'Businesses by stage' })).toBeVisible();
  await expect(page.getByText(/Checked against the Portal|Not yet checked against the Portal/)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Stages of Onboarding' })).toBeVisible();
  await expectNoErrorPage(page);
  await expectAccessible(page, 'staff home is shown');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Businesses' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Businesses' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Brightpath Dental Group', exact: true })).toBeVisible();
  await expectNoErrorPage(page);
  await expectAccessible(page, 'the businesses table is shown');

  // The board finds its pipelines and their stages without a pipeline list.
  await page.getByRole('link', { name: 'Pipeline board' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Pipeline board: / })).toBeVisible();
  await expect(page.getByRole('region', { name: /^New lead \(/ })).toBeVisible();
  await expectNoErrorPage(page);
  await expectAccessible(page, 'the board is shown');
  expect(asked).toEqual([]);
  expectNoProblems(browserProblems);
});

test('a business page: its workflow, people and deals; funding is said to be unavailable', async ({ page, baseURL, browserProblems }) => {
  const asked = watchRequests(page);
  const name = `E2E Strict ${randomUUID().slice(0, 8)} Ltd`;
  const { businessId } = await createBusiness(page.request, baseURL!, name);
  await page.goto(`/businesses/${businessId}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expectLoaded(page);
  const stepper = page.getByRole('list', { name: /^Stages of / });
  await expect(stepper.locator('li[aria-current="step"]')).toContainText('New lead');
  await expect(page.getByRole('region', { name: 'Funding' })).toContainText(FUNDING_UNAVAILABLE);
  await expect(page.getByRole('button', { name: 'New funding project' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Deals' })).toContainText('No deals yet.');
  await expectNoErrorPage(page);
  await expectAccessible(page, 'the business page is shown');

  // A stage move, quoting the business's ETag.
  await stepper.getByRole('button', { name: 'Move to Qualifying' }).click();
  await expect(stepper.locator('li[aria-current="step"]')).toContainText('Qualifying');
  await expectAccessible(page, 'the business was moved');
  expect(asked).toEqual([]);
  expectNoProblems(browserProblems);
});

test('the intake form: an answer saved without ETags, and a file uploaded and listed', async ({ page, baseURL, browserProblems }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Strict Form Ltd');
  await page.goto(`/applications/${applicationId}`);
  await formReady(page);
  await expectAccessible(page, 'the form is open');
  const legalName = page.getByRole('textbox', { name: /^Legal business name/ });
  await legalName.fill('Strict Form Limited');
  await allSaved(page);

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: /^Financials/ }).click();
  const accounts = page.getByRole('group', { name: /Latest annual accounts/ });
  await accounts.locator('input[type="file"]').setInputFiles(TINY_PDF);
  await expect(accounts.getByRole('link', { name: TINY_PDF.name })).toBeVisible({ timeout: 15_000 });
  await expectNoErrorPage(page);
  await expectAccessible(page, 'a file was uploaded');

  await page.reload();
  await formReady(page);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: /^Business details/ }).click();
  await expect(page.getByRole('textbox', { name: /^Legal business name/ })).toHaveValue('Strict Form Limited');
  expectNoProblems(browserProblems);
});

test('a deal for the Portal itself: created from the business, opened, and listed with its business', async ({ page, baseURL, browserProblems }) => {
  const asked = watchRequests(page);
  const suffix = randomUUID().slice(0, 8);
  const businessName = `E2E Strict Deals ${suffix} Ltd`;
  const dealName = `Working capital ${suffix}`;
  const { businessId } = await createBusiness(page.request, baseURL!, businessName);

  await page.goto(`/deals/new?business_id=${businessId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Create a deal' })).toBeVisible();
  await expect(page.getByText('The deal is for the Portal itself: this Portal does not list recipients to make one for.')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'A recipient' })).toHaveCount(0);
  await expectAccessible(page, 'the deal form is open');
  await page.getByLabel('Deal name').fill(dealName);
  await page.getByRole('button', { name: 'Create the deal' }).click();

  await expect(page).toHaveURL(/\/deals\/deal_[a-z0-9]+\?business_id=/);
  await expect(page.getByRole('heading', { level: 1, name: dealName })).toBeVisible();
  await expect(page.getByRole('link', { name: `← Deals of ${businessName}` })).toBeVisible();
  await expect(page.getByRole('list', { name: /^Stages of / }).locator('li[aria-current="step"]')).toBeVisible();
  await expectNoErrorPage(page);
  await expectAccessible(page, 'the new deal is shown');

  await page.getByRole('link', { name: `← Deals of ${businessName}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Deals of ${businessName}` })).toBeVisible();
  await expect(page.getByRole('link', { name: dealName })).toBeVisible();
  await expectNoErrorPage(page);
  await expectAccessible(page, "the business's deals are listed");
  expect(asked).toEqual([]);
  expectNoProblems(browserProblems);
});

test('Autofill review: a suggestion accepted', async ({ page, baseURL, browserProblems }) => {
  const applicationId = await applicationWithRun(page.request, baseURL!, 'E2E Strict Autofill Ltd', 'Legal name: Strict Autofill Ltd\nWebsite: www.strict.example');
  await page.goto(`/applications/${applicationId}/review`);
  const legal = page.getByRole('article', { name: 'Legal business name' });
  await expect(legal).toBeVisible();
  await expectAccessible(page, 'the suggestions are shown');
  await legal.getByRole('button', { name: 'Accept' }).click();
  await expect(legal.getByText('Accepted', { exact: true })).toBeVisible();
  await expectNoErrorPage(page);
  await expectAccessible(page, 'a suggestion was accepted');
  expectNoProblems(browserProblems);
});

test('on a 360 px phone the pages of these journeys fit, show no error and are accessible', async ({ page, baseURL, browserProblems }) => {
  test.setTimeout(240_000);
  const { businessId, applicationId } = await createBusiness(page.request, baseURL!, 'E2E Strict Widths Ltd');
  const pages = ['/', '/businesses', '/businesses/board', `/businesses/${businessId}`, `/deals/new?business_id=${businessId}`, `/applications/${applicationId}`];
  await page.setViewportSize(PHONE);
  for (const path of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    if (path.startsWith('/applications/')) await formReady(page);
    await expectLoaded(page);
    await expectNoErrorPage(page);
    await expectNoSidewaysScroll(page, `${path} at ${PHONE.width} px`);
    await expectAccessible(page, `${path} at ${PHONE.width} px`);
  }
  expectNoProblems(browserProblems);
});
