import { expectAccessible } from './support/axe';
import { createBusiness } from './support/applications';
import { test, expect } from './support/fixtures';
import { allSaved, formReady, staffPage } from './support/form-page';
import { STORAGE_STATE } from './support/paths';

/**
 * Saving under pressure: two people in one application at once (DESIGN.md §4's three-way merge), a lost
 * connection, a reload before the save, and submit refused while answers are missing.
 */


test('two people editing different fields: the other’s answer is merged in and shown', async ({ openContext, baseURL, page }) => {
  // Two browsers on one form, a merge and a reload: about 40 s in CI, more on a busy machine.
  test.setTimeout(120_000);
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Merge Ltd');
  const path = `/applications/${applicationId}`;
  const alice = await staffPage(openContext, path);
  const bob = await staffPage(openContext, path);

  await alice.getByLabel('Legal business name').fill('Merge Holdings Ltd');
  await allSaved(alice);
  // Bob's page still holds the revision from before Alice's save: his write meets a 412 and merges.
  await bob.getByLabel('Trading name').fill('Merge & Co');
  await allSaved(bob);
  await expect(bob.getByLabel('Legal business name')).toHaveValue('Merge Holdings Ltd');
  const notice = bob.getByRole('status').filter({ hasText: 'Someone else updated an answer' });
  await expect(notice).toBeVisible();
  await expect(notice.getByRole('link', { name: 'Legal business name' })).toBeVisible();
  await expect(bob.getByText('Updated by someone else just now.')).toBeVisible();
  await expectAccessible(bob, 'another person’s change was merged in');
  await notice.getByRole('button', { name: 'Got it' }).click();
  await expect(notice).toHaveCount(0);

  await alice.reload();
  await formReady(alice);
  await expect(alice.getByLabel('Trading name')).toHaveValue('Merge & Co');
  await expect(alice.getByLabel('Legal business name')).toHaveValue('Merge Holdings Ltd');
});

test('two people changing the same field: the second is asked, and nothing typed is lost', async ({ openContext, baseURL, page }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Conflict Ltd');
  const path = `/applications/${applicationId}`;
  const alice = await staffPage(openContext, path);
  const bob = await staffPage(openContext, path);

  // Bob types before Alice's answers reach him: offline, so neither his save nor her live update goes first.
  await bob.context().setOffline(true);
  await bob.getByRole('textbox', { name: /^Legal business name/ }).fill('Beta Ltd');
  await bob.getByRole('textbox', { name: /^Trading name/ }).fill('Beta');
  await alice.getByRole('textbox', { name: /^Legal business name/ }).fill('Alpha Ltd');
  await alice.getByRole('textbox', { name: /^Trading name/ }).fill('Alpha');
  await allSaved(alice);
  await bob.context().setOffline(false);

  const summary = bob.getByRole('alert').filter({ hasText: 'answers need your decision' });
  await expect(summary).toBeVisible({ timeout: 15_000 });
  const legal = bob.getByRole('group', { name: /Someone else changed “Legal business name”/ });
  await expect(legal.getByText('Beta Ltd')).toBeVisible();
  await expect(legal.getByText('Alpha Ltd')).toBeVisible();
  // Until the person chooses, their value stays in the box.
  await expect(bob.getByRole('textbox', { name: /^Legal business name/ })).toHaveValue('Beta Ltd');
  await expectAccessible(bob, 'a conflict waits for a decision');

  await legal.getByRole('button', { name: 'Keep mine' }).click();
  const trading = bob.getByRole('group', { name: /Someone else changed “Trading name”/ });
  await trading.getByRole('button', { name: 'Take theirs' }).click();
  await expect(bob.getByRole('textbox', { name: /^Trading name/ })).toHaveValue('Alpha');
  await expect(summary).toHaveCount(0);
  await allSaved(bob);

  await alice.reload();
  await formReady(alice);
  await expect(alice.getByRole('textbox', { name: /^Legal business name/ })).toHaveValue('Beta Ltd');
  await expect(alice.getByRole('textbox', { name: /^Trading name/ })).toHaveValue('Alpha');
});

test('edits made offline are kept on the device and sent when the connection returns', async ({ page, baseURL, context, openContext }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Offline Ltd');
  await page.goto(`/applications/${applicationId}`);
  await formReady(page);

  await context.setOffline(true);
  await page.getByLabel('Legal business name').fill('Offline Trading Ltd');
  await expect(page.getByRole('status').filter({ hasText: 'Offline — kept on this device' })).toBeVisible({ timeout: 10_000 });
  await expectAccessible(page, 'the connection is lost');

  // The tab closes while offline; the edit lives in this browser's storage.
  await page.close();
  await context.setOffline(false);
  const again = await context.newPage();
  await again.goto(`/applications/${applicationId}`);
  await formReady(again);
  await expect(again.getByLabel('Legal business name')).toHaveValue('Offline Trading Ltd');
  await allSaved(again);

  // Another device sees it: it reached the Portal.
  const other = await (await openContext({ storageState: STORAGE_STATE })).newPage();
  await other.goto(`/applications/${applicationId}`);
  await formReady(other);
  await expect(other.getByLabel('Legal business name')).toHaveValue('Offline Trading Ltd');
});

test('the connection drops mid-edit and returns: everything typed is saved', async ({ page, baseURL, context }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Flaky Ltd');
  await page.goto(`/applications/${applicationId}`);
  await formReady(page);
  await page.getByLabel('Legal business name').fill('Flaky');
  await context.setOffline(true);
  await page.getByLabel('Legal business name').pressSequentially(' Networks Ltd');
  await page.getByLabel('Trading name').fill('Flaky Networks');
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toBeVisible({ timeout: 10_000 });
  await context.setOffline(false);
  await allSaved(page);
  await page.reload();
  await formReady(page);
  await expect(page.getByLabel('Legal business name')).toHaveValue('Flaky Networks Ltd');
  await expect(page.getByLabel('Trading name')).toHaveValue('Flaky Networks');
});

test('a reload before the save goes out loses nothing', async ({ page, baseURL }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Reload Ltd');
  await page.goto(`/applications/${applicationId}`);
  await formReady(page);
  // Blocked writes stand for a save that never got out before the page went away.
  await page.route('**/answers', (route) => (route.request().method() === 'PATCH' ? route.abort() : route.continue()));
  await page.getByLabel('Legal business name').fill('Quick Reload Ltd');
  await page.reload();
  await page.unroute('**/answers');
  await formReady(page);
  await expect(page.getByLabel('Legal business name')).toHaveValue('Quick Reload Ltd');
  await allSaved(page);
});

test('submit lists what is missing, each linked to its field; values are checked as you type', async ({ page, baseURL }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Missing Ltd');
  await page.goto(`/applications/${applicationId}`);
  await formReady(page);

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: /^Contact/ }).click();
  const email = page.getByLabel('Email address');
  await email.fill('not-an-email');
  await email.blur();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Enter a valid email address', { exact: true })).toBeVisible();
  await email.fill('ops@missing.example');
  await expect(page.getByText('Enter a valid email address', { exact: true })).toHaveCount(0);
  await allSaved(page);

  await page.getByRole('button', { name: 'Submit application' }).click();
  const missing = page.getByRole('alert').filter({ hasText: 'before this application can be submitted' });
  await expect(missing).toBeVisible();
  await expect(missing).toBeFocused();
  // The business's name came with its create: not missing.
  await expect(missing.getByRole('link', { name: 'Legal business name' })).toHaveCount(0);
  await expect(missing.getByRole('link', { name: 'Number of employees' })).toBeVisible();
  await expect(missing.getByRole('link', { name: 'Owners' })).toBeVisible();
  await expectAccessible(page, 'submit was refused with answers missing');

  await missing.getByRole('link', { name: 'Number of employees' }).click();
  await expect(page.getByLabel('Number of employees')).toBeFocused();
  await expect(page.getByText('This field is required').first()).toBeVisible();
  await expect(page.getByText(/^Submitted on/)).toHaveCount(0);
});
