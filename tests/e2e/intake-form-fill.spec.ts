import { expectAccessible } from './support/axe';
import { createBusiness, inviteClient, openInvitationFirstTime } from './support/applications';
import { test, expect } from './support/fixtures';
import { fillWholeForm, readContract } from './support/form-filler';
import { allSaved, expectFilledAfterReload, formReady, submitAndExpectReadOnly } from './support/form-page';
import { expectNoSidewaysScroll } from './support/phone';

/**
 * The whole intake form as a person fills it: every widget of the demo contract, nested repeatable items
 * and a file; everything is there again after a reload; then it is submitted and becomes read-only.
 */

test('staff reach an intake application from the businesses list', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Businesses' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Businesses' })).toBeVisible();
  await expectAccessible(page, 'the businesses list is shown');
  // Other tests add businesses with newer activity: the seeded one is found by name.
  await page.getByRole('searchbox', { name: 'Name or contact' }).fill('Brightpath');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'Open application of Brightpath Dental Group' }).click();
  await formReady(page);
  await expect(page).toHaveURL(/\/applications\/ciappl_/);
  await expect(page.getByText('Brightpath Dental Group').first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Business funding application' })).toBeVisible();
});

test('staff fill every field, find every value after a reload, and submit', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Staff Fill Ltd');
  await page.goto(`/applications/${applicationId}`);
  await formReady(page);
  await expectAccessible(page, 'an empty form is open');

  const contract = await readContract(page, applicationId);
  const filled = await fillWholeForm(page, contract);
  const widgets = new Set(filled.map((f) => f.field.widget));
  for (const w of ['text', 'textarea', 'email', 'tel', 'url', 'integer', 'currency', 'percent', 'date', 'yes-no', 'checkbox', 'radio', 'select', 'checkbox-group', 'file']) {
    expect(widgets, `the demo form exercises the ${w} widget`).toContain(w);
  }
  expect(filled.some((f) => f.path.length === 2), 'an answer in a nested repeatable item').toBe(true);
  await allSaved(page);
  await expectAccessible(page, 'the form is filled');

  await expectFilledAfterReload(page, filled);
  await submitAndExpectReadOnly(page);
  await expectAccessible(page, 'the application is submitted');
  await page.reload();
  await formReady(page);
  await expect(page.getByText(/^Submitted on/)).toBeVisible();
});

test('an invited client fills and submits their own application, and is shown their confirmation', async ({ page, baseURL, openContext }) => {
  test.setTimeout(240_000);
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Client Fill Ltd');
  const link = await inviteClient(page.request, baseURL!, applicationId, { clientSubmits: true });
  const contract = await readContract(page, applicationId);

  const context = await openContext({ storageState: { cookies: [], origins: [] } });
  const client = await context.newPage();
  await openInvitationFirstTime(client, link);
  await expect(client).toHaveURL(new RegExp(`/applications/${applicationId}`));
  await formReady(client);
  await expect(client.getByText('Invited client')).toBeVisible();
  await expectAccessible(client, 'the client opens the form');

  const filled = await fillWholeForm(client, contract);
  await allSaved(client);
  await expectFilledAfterReload(client, filled);
  const problems: string[] = [];
  client.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  client.on('pageerror', (e) => problems.push(e.message));
  await client.getByRole('button', { name: 'Submit application' }).click();

  // Their confirmation: what was sent and when, what happens next, who to contact, a copy of the answers;
  // focus on its heading, and no Autofill any more.
  await expect(client).toHaveURL(new RegExp(`/applications/${applicationId}/submitted$`), { timeout: 15_000 });
  const heading = client.getByRole('heading', { level: 1, name: 'Application sent' });
  await expect(heading).toBeFocused();
  await expect(client.getByText(/^Your Business funding application for E2E Client Fill Ltd was sent on \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\.$/)).toBeVisible();
  await expect(client.getByRole('heading', { level: 2, name: 'What happens next' })).toBeVisible();
  const contact = client.getByRole('region', { name: 'Who to contact' });
  await expect(contact.getByRole('link', { name: 'staff@example.com' })).toHaveAttribute('href', 'mailto:staff@example.com');
  const copy = client.getByRole('region', { name: 'A copy of your answers' });
  const legal = filled.find((f) => f.field.schemaKey === 'legal_name')!;
  await expect(copy.getByRole('definition').filter({ hasText: String(legal.example) }).first()).toBeVisible();
  await expect(copy.getByRole('region', { name: /^Owners 1$/ })).toBeVisible();
  await expect(client.getByRole('link', { name: 'Autofill' })).toHaveCount(0);
  await expectAccessible(client, 'the client’s confirmation');
  for (const viewport of [{ width: 360, height: 740 }, { width: 1280, height: 800 }]) {
    await client.setViewportSize(viewport);
    await client.reload();
    await expect(heading).toBeFocused();
    await expectNoSidewaysScroll(client, `the confirmation at ${viewport.width} px`);
    await expectAccessible(client, `the client’s confirmation at ${viewport.width} px`);
  }
  // Back on the form: read-only, and the confirmation where Autofill was.
  await client.goto(`/applications/${applicationId}`);
  await formReady(client);
  await expect(client.getByText(/^Submitted on/)).toBeVisible();
  await expect(client.getByRole('link', { name: 'Autofill' })).toHaveCount(0);
  await expect(client.getByRole('link', { name: 'Your confirmation' })).toBeVisible();
  expect(problems).toEqual([]);

  // The client reaches nothing else: another application is not found.
  await client.goto('/applications/ciappl_brightpath');
  await expect(client.getByRole('heading', { level: 1, name: 'This page was not found' })).toBeVisible();
  await expect(client.getByText('Brightpath Dental Group')).toHaveCount(0);
});
