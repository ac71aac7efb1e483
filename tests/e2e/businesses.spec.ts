import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { moveInBackground, openInvitationFirstTime, stagesOf } from './support/applications';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { formReady } from './support/form-page';
import { expectNoSidewaysScroll, PHONE } from './support/phone';

/**
 * The businesses pages as staff use them: the list, creating a business with a contact and a document,
 * its page with the workflow (a move, and a move refused because someone else moved it first), and an
 * invitation for its client copied, used and revoked.
 */

const currentStep = (page: Page) => page.getByRole('list', { name: /^Stages of / }).locator('li[aria-current="step"]');

test('creating a business with a document and moving its stage', async ({ page, baseURL, openContext, browserProblems }) => {
  test.setTimeout(180_000);
  const name = `E2E Biz ${randomUUID().slice(0, 8)} Ltd`;

  // The list, and the way to a new business.
  await page.goto('/businesses');
  await expect(page.getByRole('heading', { level: 1, name: 'Businesses' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Brightpath Dental Group', exact: true })).toBeVisible();
  await expectAccessible(page, 'the businesses list is shown');
  await page.getByRole('link', { name: 'Create a business' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Create a business' })).toBeVisible();
  await expectAccessible(page, 'the create form is empty');

  // Refusals are shown next to their fields, announced, and the first field gets focus.
  await page.getByLabel('Full name').fill('Jo Client');
  await page.getByRole('button', { name: 'Create business' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The business was not created' })).toBeVisible();
  await expect(page.getByText('Enter the business’s name')).toBeVisible();
  await expect(page.getByText('Enter the contact’s email address')).toBeVisible();
  await expect(page.getByLabel('Business name (required)')).toBeFocused();
  await expectAccessible(page, 'the create form shows its errors');

  await page.getByLabel('Business name (required)').fill(name);
  await page.getByLabel('Email address').fill('jo.client@example.test');
  await page.getByLabel('Job title').fill('Director');
  await page.getByLabel('Choose documents').setInputFiles({
    name: 'bank-statement.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Statement for March: opening balance 1,000.00, closing balance 2,500.00\n'.repeat(200)),
  });
  await expect(page.getByRole('list', { name: 'Documents to upload' }).getByRole('listitem')).toContainText('bank-statement.txt');
  await page.getByRole('button', { name: 'Create business' }).click();

  // Created: say what the document is, then it is uploaded with its progress shown.
  await expect(page.getByRole('heading', { name: `${name} was created` })).toBeFocused();
  const kind = page.getByLabel('What is bank-statement.txt?');
  await expect(kind.getByRole('option', { name: 'Business bank statements' })).toBeAttached();
  await expectAccessible(page, 'the new business asks what its document is');
  await page.getByRole('button', { name: 'Upload the document' }).click();
  await expect(page.getByText('Say what each document is before uploading.')).toBeVisible();
  await expect(kind).toBeFocused();
  await kind.selectOption({ label: 'Business bank statements' });
  await page.getByRole('button', { name: 'Upload the document' }).click();
  const progress = page.getByRole('progressbar', { name: 'bank-statement.txt uploaded' });
  await expect(progress).toBeVisible();
  expect(await progress.evaluate((p: HTMLProgressElement) => p.value === p.max && p.max > 1)).toBe(true);
  await expect(page.getByRole('status').filter({ hasText: 'All documents are uploaded.' })).toBeAttached();
  const goTo = page.getByRole('link', { name: `Go to ${name}` });
  await expect(goTo).toBeFocused();
  await expectAccessible(page, 'the document is uploaded');
  await goTo.click();

  // The business page.
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const businessId = new URL(page.url()).pathname.split('/').at(-1)!;
  expect(businessId).toMatch(/^biz_/);
  const stages = await stagesOf(page.request, businessId);
  expect(stages.length).toBeGreaterThanOrEqual(4);
  await expect(currentStep(page)).toContainText(stages[0]!.name);
  await expect(page.getByRole('region', { name: 'People' }).getByText('Jo Client')).toBeVisible();
  const application = page.getByRole('region', { name: 'Intake application' });
  await expect(application.getByRole('progressbar')).toBeVisible();
  await expect(application.getByText(/^\d+ of \d+ answered/)).toBeVisible();
  const formLink = application.getByRole('link', { name: 'Open the application form' });
  const applicationId = (await formLink.getAttribute('href'))!.split('/').at(-1)!;
  expect(applicationId).toMatch(/^ciappl_/);
  await expectAccessible(page, 'the business page is shown');

  // A stage move.
  await page.getByRole('button', { name: `Move to ${stages[1]!.name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Moved to ${stages[1]!.name}.` })).toBeVisible();
  await expect(currentStep(page)).toContainText(stages[1]!.name);
  await expect(currentStep(page)).toBeFocused();
  await expectAccessible(page, 'the business was moved');

  // Someone moves it meanwhile: the page's move is refused, explained, and can be made again.
  await moveInBackground(page.request, baseURL!, businessId, stages[2]!.id);
  await page.getByRole('button', { name: `Move to ${stages[3]!.name}` }).click();
  await expect(page.getByRole('alert').filter({ hasText: `Someone moved it meanwhile: now in ${stages[2]!.name}.` })).toBeVisible();
  await expect(currentStep(page)).toContainText(stages[2]!.name);
  await expectAccessible(page, 'a move was refused because of a concurrent move');
  await page.getByRole('button', { name: `Move to ${stages[3]!.name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Moved to ${stages[3]!.name}.` })).toBeVisible();
  await expect(currentStep(page)).toContainText(stages[3]!.name);
  await page.reload();
  await expect(currentStep(page)).toContainText(stages[3]!.name);

  // Invite the client: the link is shown once, copied, and opens the form in a fresh browser.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  const invitations = page.getByRole('region', { name: 'Client invitations' });
  await invitations.getByLabel('Client’s name (optional)').fill('E2E Client');
  await invitations.getByLabel('Link valid for (hours) (required)').fill('0');
  await invitations.getByRole('button', { name: 'Create invitation link' }).click();
  await expect(invitations.getByText('Enter between 1 and 720 hours (30 days)')).toBeVisible();
  await invitations.getByLabel('Link valid for (hours) (required)').fill('48');
  await invitations.getByRole('button', { name: 'Create invitation link' }).click();
  await expect(invitations.getByRole('heading', { name: 'Invitation link for E2E Client' })).toBeFocused();
  await expect(invitations.getByText(/^Expires /)).toBeVisible();
  await invitations.getByRole('button', { name: 'Copy link' }).click();
  await expect(invitations.getByRole('status').filter({ hasText: 'Link copied.' })).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/\/invite\/[^/]+$/);
  await expect(invitations.getByLabel('Invitation link')).toHaveValue(link);
  await expect(invitations.getByRole('row').filter({ hasText: 'E2E Client' })).toContainText('Active');
  await expectAccessible(page, 'an invitation link is shown');

  const context = await openContext({ storageState: { cookies: [], origins: [] } });
  const client = await context.newPage();
  await openInvitationFirstTime(client, link);
  await expect(client).toHaveURL(new RegExp(`/applications/${applicationId}`));
  await expect(client.locator('form[data-form-ready="true"]')).toBeVisible();
  await context.close();

  // Revoke it (after a confirmation): the link no longer opens anything.
  await invitations.getByRole('button', { name: 'Revoke the invitation for E2E Client' }).click();
  // Selector adapted: the confirmation is a modal dialog, titled with whom the invitation is for.
  const confirm = page.getByRole('dialog', { name: /^Revoke this invitation for E2E Client\?/ });
  // It opens on the safe choice.
  await expect(confirm.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await expectAccessible(page, 'a revocation is to be confirmed');
  await confirm.getByRole('button', { name: 'Yes, revoke it' }).click();
  await expect(invitations.getByRole('status').filter({ hasText: 'is revoked' })).toBeVisible();
  await expect(invitations.getByRole('row').filter({ hasText: 'E2E Client' })).toContainText('Revoked');
  await expect(invitations.getByLabel('Invitation link')).toHaveCount(0);
  await expectAccessible(page, 'the invitation is revoked');

  const later = await openContext({ storageState: { cookies: [], origins: [] } });
  const again = await later.newPage();
  await again.goto(link);
  await expect(again).toHaveURL(/\/invite\/invalid\?reason=revoked/);
  await expect(again.getByRole('heading', { level: 1, name: 'This invitation link has been withdrawn' })).toBeVisible();

  // The refused move logs a 412 in the console on purpose; nothing may have thrown.
  expect(browserProblems.filter((p) => p.kind === 'pageerror')).toEqual([]);
});

test('a business without a contact shows the Portal’s warning before its page', async ({ page }) => {
  const name = `E2E Lone ${randomUUID().slice(0, 8)} Ltd`;
  await page.goto('/businesses/new');
  await page.getByLabel('Business name (required)').fill(name);
  await page.getByRole('button', { name: 'Create business' }).click();
  await expect(page.getByRole('heading', { name: `${name} was created` })).toBeFocused();
  await expect(page.getByText('No contact was given, so no client invitation was created.')).toBeVisible();
  await expectAccessible(page, 'the Portal’s warnings are shown');
  await page.getByRole('link', { name: `Go to ${name}` }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByRole('region', { name: 'People' }).getByText('No people yet.')).toBeVisible();
  await expectAccessible(page, 'a business without people is shown');
});

for (const [width, viewport] of [
  ['desktop', null],
  ['a 360 px phone', PHONE],
] as const) {
  test(`"was not created" goes once a field is changed, and the new application holds what the form collected, on ${width}`, async ({ page, browserProblems }) => {
    // Several steps with axe in each: slow on a busy machine.
    test.setTimeout(120_000);
    if (viewport) await page.setViewportSize(viewport);
    await page.goto('/businesses/new');
    await expect(page.getByRole('heading', { level: 1, name: 'Create a business' })).toBeVisible();
    await page.getByLabel('Business name (required)').fill(`E2E Banner ${randomUUID().slice(0, 8)} Ltd`);
    await page.getByLabel('Full name').fill('Jo Client');
    await page.getByLabel('Email address').fill('not an address');
    await page.getByRole('button', { name: 'Create business' }).click();
    const banner = page.getByRole('alert').filter({ hasText: 'The business was not created' });
    await expect(banner).toBeVisible();
    await expect(page.getByText('Enter a valid email address')).toBeVisible();
    await expectAccessible(page, `the create form refused a field on ${width}`);

    await page.getByLabel('Email address').fill('jo.client@example.test');
    await expect(banner).toHaveCount(0);
    await expectAccessible(page, `the field was fixed on ${width}`);
    if (viewport) await expectNoSidewaysScroll(page, 'the field was fixed');

    // Created: its application already holds the name and the contact the form collected.
    await page.getByRole('button', { name: 'Create business' }).click();
    await expect(page).toHaveURL(/\/businesses\/biz_[a-z0-9]+$/);
    const businessId = new URL(page.url()).pathname.split('/').pop()!;
    await page.goto(`/businesses/${businessId}/application`);
    await expect(page).toHaveURL(/\/applications\/ciappl_[a-z0-9]+/);
    await page.goto(`${new URL(page.url()).pathname}?section=contact`);
    await formReady(page);
    await expect(page.getByRole('textbox', { name: /^Contact name/ })).toHaveValue('Jo Client');
    await expect(page.getByRole('textbox', { name: /^Email address/ })).toHaveValue('jo.client@example.test');
    await expect(page.getByRole('textbox', { name: /^Phone number/ })).toHaveValue('');
    expect(browserProblems).toEqual([]);
  });
}
