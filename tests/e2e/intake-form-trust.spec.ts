import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { createBusiness } from './support/applications';
import { test, expect, type BrowserProblem } from './support/fixtures';
import { allSaved, formReady, staffPage } from './support/form-page';
import { STORAGE_STATE } from './support/paths';

/**
 * What a person types is kept exactly or they are told: every save state says what is true —
 * saved, saving, offline, answers held back with their reasons (also after a reload), waiting for a
 * decision, failed with a retry — with no hydration error in any of them; long text is never cut; a number
 * a double would round is refused; closing moves and revocations are confirmed in a dialog.
 */

const saveStatus = (page: Page) => page.locator('.save-status');
const statusLine = (page: Page) => saveStatus(page).getByRole('status');

/** Console errors but those a test provokes on purpose (the browser logs refused and failed requests). */
function unexpected(problems: readonly BrowserProblem[], provoked: RegExp[] = []) {
  return problems.filter((p) => !provoked.some((re) => re.test(p.text)));
}

/** Nothing sticks out sideways: the page fits a phone's width. */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(client);
}

async function openForm(page: Page, baseURL: string, name: string, section?: string) {
  const { applicationId, businessId } = await createBusiness(page.request, baseURL, name);
  await page.goto(`/applications/${applicationId}${section ? `?section=${section}` : ''}`);
  await formReady(page);
  return { applicationId, businessId };
}

test('an invalid answer is held back, listed with its reason and link, and still held after a reload', async ({ page, baseURL, browserProblems }) => {
  await openForm(page, baseURL!, `E2E Held ${randomUUID().slice(0, 6)} Ltd`, 'contact');
  const email = page.getByRole('textbox', { name: /^Email address/ });
  await email.fill('.test@example.com');
  await email.blur();

  await expect(statusLine(page)).toHaveText('One answer not saved — fix it:');
  const held = saveStatus(page).getByRole('list', { name: 'Answers not saved' });
  await expect(held).toContainText('Email address: Enter a valid email address');
  await expect(page.getByText('All changes saved.')).toHaveCount(0);
  await expectAccessible(page, 'an invalid answer is held back');

  // After a reload the value comes back from this device, still shown as not saved, with its reason.
  await page.reload();
  await formReady(page);
  await expect(email).toHaveValue('.test@example.com');
  await expect(statusLine(page)).toHaveText('One answer not saved — fix it:');
  await expect(page.locator('[data-field="a.contact_email.contact_email.value"] .field-error')).toHaveText('Enter a valid email address');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'a held answer came back after a reload');

  // Submit names it too, rather than "not saved yet" without saying which.
  await page.getByRole('button', { name: 'Submit application' }).click();
  await expect(page.locator('.missing-list')).toContainText('Email address — Enter a valid email address');

  // The link in the status takes the person to the field, from another section too.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: /^Business details/ }).click();
  await expect(email).toHaveCount(0);
  await held.getByRole('link', { name: 'Email address' }).click();
  await expect(email).toBeFocused();
  await email.fill('test@example.com');
  await allSaved(page);
  await expect(held).toHaveCount(0);
  expect(unexpected(browserProblems)).toEqual([]);
});

test('a number a double would round is refused with a message, and nothing else is saved in its place', async ({ page, baseURL, browserProblems }) => {
  await openForm(page, baseURL!, `E2E Huge ${randomUUID().slice(0, 6)} Ltd`, 'funding');
  const amount = page.getByRole('textbox', { name: /^How much funding do you need\?/ });
  await amount.fill('123456789012345678901234567890');
  await amount.blur();
  const message = 'Has more digits than can be kept exactly: use at most 15 significant digits';
  await expect(page.locator('[data-field="a.funding_amount.funding_amount.value"] .field-error')).toHaveText(message);
  await expect(saveStatus(page).getByRole('list', { name: 'Answers not saved' })).toContainText(`How much funding do you need?: ${message}`);
  await expect(amount).toHaveValue('123456789012345678901234567890');
  await expectAccessible(page, 'a huge number is refused');
  expect(unexpected(browserProblems)).toEqual([]);
});

test('long text: a live counter near the limit, and a paste over it is kept whole and explained', async ({ page, baseURL, browserProblems, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  await openForm(page, baseURL!, `E2E Long ${randomUUID().slice(0, 6)} Ltd`);
  const description = page.getByRole('textbox', { name: /^What does the business do\?/ });
  const counter = page.locator('[data-field="a.business_description.business_description.value"] .field-count').first();

  await description.fill('a'.repeat(8_000));
  await expect(counter).toBeHidden();
  await description.fill('a'.repeat(9_500));
  await expect(counter).toHaveText('9,500 of 10,000 characters');
  await allSaved(page);
  await expectAccessible(page, 'the counter shows near the limit');

  // A paste that takes it over the limit: nothing is cut, the count and the reason are shown, nothing saved.
  await page.evaluate(() => navigator.clipboard.writeText('b'.repeat(600)));
  await description.press('End');
  await description.press('ControlOrMeta+V');
  await expect(description).toHaveValue('a'.repeat(9_500) + 'b'.repeat(600));
  await expect(counter).toHaveText('100 characters too many: 10,100 of 10,000. Not saved until it is shorter.');
  await expect(page.getByText('What you pasted made this longer than 10,000 characters. Nothing was cut; shorten it to save it.')).toBeVisible();
  await expect(statusLine(page)).toHaveText('One answer not saved — fix it:');
  await expectAccessible(page, 'a paste went over the limit');

  await description.fill('a'.repeat(10_000));
  await allSaved(page);
  await expect(counter).toHaveText('10,000 of 10,000 characters');
  expect(unexpected(browserProblems)).toEqual([]);
});

test('a failed save says so and retries on request; offline keeps the edit on the device', async ({ page, baseURL, browserProblems, context }) => {
  test.setTimeout(120_000);
  await openForm(page, baseURL!, `E2E Fail ${randomUUID().slice(0, 6)} Ltd`);
  // The Portal is down for a moment: every answer write fails with 503.
  const answers = /\/api\/applications\/[^/]+\/answers/;
  let failures = 0;
  await page.route(answers, (route) => {
    if (route.request().method() !== 'PATCH') return route.fallback();
    failures++;
    return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'upstream_unavailable', message: 'The Portal is not answering.', request_id: 'req_e2e', details: [] } }) });
  });
  await page.getByRole('textbox', { name: /^Legal business name/ }).fill('Failing Ltd');
  // The write and its automatic retries after 1, 2, 5 and 10 s fail; the next waits 30 s. Acting inside the
  // 10 s wait raced the automatic retry on a busy machine (it succeeded first and took the button away).
  await expect.poll(() => failures, { timeout: 40_000 }).toBeGreaterThanOrEqual(5);
  await expect(statusLine(page)).toContainText('Not saved.');
  const retry = saveStatus(page).getByRole('button', { name: 'Retry now' });
  await expect(retry).toBeVisible();
  await expectAccessible(page, 'a save failed');
  await page.unroute(answers);
  // Retry now sends at once rather than at the back-off's time.
  const sent = page.waitForRequest((r) => r.method() === 'PATCH' && answers.test(r.url()));
  await retry.click();
  await sent;
  await allSaved(page);

  await context.setOffline(true);
  await page.getByRole('textbox', { name: /^Trading name/ }).fill('Offline Co');
  await expect(statusLine(page)).toHaveText('Offline — kept on this device. Your changes will be sent when the connection returns.');
  await expectAccessible(page, 'offline');
  await context.setOffline(false);
  await allSaved(page);
  expect(unexpected(browserProblems, [/status of 503/, /ERR_INTERNET_DISCONNECTED/, /ERR_NETWORK_CHANGED/])).toEqual([]);
});

test('a conflict is "waiting for your decision", never "saved", also after a reload', async ({ openContext, baseURL, page }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, `E2E Decide ${randomUUID().slice(0, 6)} Ltd`);
  const path = `/applications/${applicationId}`;
  const alice = await staffPage(openContext, path);
  const problems: string[] = [];
  const bob = await openContext({ storageState: STORAGE_STATE });
  const bobPage = await bob.newPage();
  bobPage.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  bobPage.on('pageerror', (e) => problems.push(e.message));
  await bobPage.goto(path);
  await formReady(bobPage);

  await bob.setOffline(true);
  await bobPage.getByRole('textbox', { name: /^Legal business name/ }).fill('Bob Ltd');
  await alice.getByRole('textbox', { name: /^Legal business name/ }).fill('Alice Ltd');
  await allSaved(alice);
  await bob.setOffline(false);
  await expect(statusLine(bobPage)).toHaveText(/^Waiting for your decision: one answer was changed by someone else too/, { timeout: 15_000 });
  await expectAccessible(bobPage, 'a conflict waits for a decision');

  await bobPage.reload();
  await formReady(bobPage);
  await expect(statusLine(bobPage)).toHaveText(/^Waiting for your decision/);
  await expect(bobPage.getByRole('textbox', { name: /^Legal business name/ })).toHaveValue('Bob Ltd');
  await bobPage.getByRole('group', { name: /Someone else changed “Legal business name”/ }).getByRole('button', { name: 'Keep mine' }).click();
  await allSaved(bobPage);
  expect(problems.filter((t) => !/ERR_INTERNET_DISCONNECTED|ERR_NETWORK_CHANGED|status of 412/.test(t))).toEqual([]);
});

test('on a phone (360 px): the held answers list and the counter fit, and a reload has no hydration error', async ({ openContext, baseURL, page }) => {
  const phone = await openContext({ storageState: STORAGE_STATE, viewport: { width: 360, height: 780 } });
  const mobile = await phone.newPage();
  const problems: string[] = [];
  mobile.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  mobile.on('pageerror', (e) => problems.push(e.message));
  const { applicationId } = await createBusiness(page.request, baseURL!, `E2E Phone ${randomUUID().slice(0, 6)} Ltd`);
  await mobile.goto(`/applications/${applicationId}?section=contact`);
  await formReady(mobile);
  await mobile.getByRole('textbox', { name: /^Email address/ }).fill('te..st@example.com');
  await expect(statusLine(mobile)).toHaveText('One answer not saved — fix it:');
  await expectNoSidewaysScroll(mobile);
  await mobile.reload();
  await formReady(mobile);
  await expect(statusLine(mobile)).toHaveText('One answer not saved — fix it:');
  await expectNoSidewaysScroll(mobile);
  await expectAccessible(mobile, 'a held answer on a phone');
  expect(problems).toEqual([]);
});

test('a move to a closing stage and a revocation ask first, in a dialog: Escape cancels and focus returns', async ({ page, baseURL, browserProblems }) => {
  const name = `E2E Close ${randomUUID().slice(0, 6)} Ltd`;
  const { businessId, applicationId } = await createBusiness(page.request, baseURL!, name);
  await page.goto(`/businesses/${businessId}`);
  const steps = page.getByRole('list', { name: /^Stages of / });
  await expect(steps).toBeVisible();

  const decline = page.getByRole('button', { name: 'Move to Declined' });
  await decline.click();
  const dialog = page.getByRole('dialog', { name: `Move ${name} to Declined?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Declined is a closing stage');
  // The safe choice has focus first: a stray Enter moves nothing.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessible(page, 'a closing move is to be confirmed');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(decline).toBeFocused();
  await expect(steps.locator('li[aria-current="step"]')).toContainText('New lead');

  // A move that is not closing goes at once; a closing one once confirmed.
  await page.getByRole('button', { name: 'Move to Qualifying' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Moved to Qualifying.' })).toBeVisible();
  await page.getByRole('button', { name: 'Move to Approved' }).click();
  await page.getByRole('dialog', { name: `Move ${name} to Approved?` }).getByRole('button', { name: 'Move to Approved' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Moved to Approved.' })).toBeVisible();
  await expect(steps.locator('li[aria-current="step"]')).toContainText('Approved');

  // A revocation: the dialog's Keep it (or Escape) leaves the invitation as it was.
  const invite = await page.request.post(`/api/applications/${applicationId}/invitations`, {
    headers: { 'X-CSRF': '1', Origin: baseURL! },
    data: { client_name: 'E2E Dialog Client' },
  });
  expect(invite.status()).toBe(201);
  await page.reload();
  const revoke = page.getByRole('button', { name: 'Revoke the invitation for E2E Dialog Client' });
  await revoke.click();
  const confirm = page.getByRole('dialog', { name: 'Revoke this invitation for E2E Dialog Client?' });
  await expect(confirm.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(revoke).toBeFocused();
  await revoke.click();
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(revoke).toBeFocused();
  await expect(page.getByRole('row').filter({ hasText: 'E2E Dialog Client' })).toContainText('Active');
  expect(unexpected(browserProblems)).toEqual([]);
});

test('a deal asks before a move to Won or Lost', async ({ page, baseURL, browserProblems }) => {
  const { businessId } = await createBusiness(page.request, baseURL!, `E2E Deal Close ${randomUUID().slice(0, 6)} Ltd`);
  const res = await page.request.post('/api/deals', {
    headers: { 'X-CSRF': '1', Origin: baseURL!, 'Idempotency-Key': randomUUID() },
    data: { name: 'Closing deal', business_id: businessId },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { deal } = (await res.json()) as { deal: { id: string } };
  await page.goto(`/deals/${deal.id}`);
  const lost = page.getByRole('button', { name: 'Move to Lost' });
  await lost.click();
  const dialog = page.getByRole('dialog', { name: 'Move Closing deal to Lost?' });
  await expect(dialog).toContainText('Lost is a closing stage of');
  await expectAccessible(page, 'a deal’s closing move is to be confirmed');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(lost).toBeFocused();
  await page.getByRole('button', { name: 'Move to Won' }).click();
  await page.getByRole('dialog', { name: 'Move Closing deal to Won?' }).getByRole('button', { name: 'Move to Won' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Moved to Won.' })).toBeVisible();
  expect(unexpected(browserProblems)).toEqual([]);
});
