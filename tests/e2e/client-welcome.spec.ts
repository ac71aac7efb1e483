import type { Page } from '@playwright/test';
import { createBusiness, inviteClient } from './support/applications';
import { expectAccessible } from './support/axe';
import { expect, test, type OpenContext } from './support/fixtures';
import { expectNoSidewaysScroll, PHONE } from './support/phone';

/**
 * An invited client's first visit: a welcome (who asked, what is needed, which documents, progress), then
 * the form; a later visit with the same link goes straight to the form, in the section they were last in.
 */

const signedOut = { cookies: [], origins: [] };
const formReady = (page: Page) => page.locator('form[data-form-ready="true"]');

async function clientPage(openContext: OpenContext, viewport?: { width: number; height: number }) {
  const context = await openContext({ storageState: signedOut, ...(viewport ? { viewport } : {}) });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
  page.on('pageerror', (e) => void problems.push(e.message));
  return { context, page, problems };
}

for (const [device, viewport] of [
  ['desktop', undefined],
  ['a 360 px phone', PHONE],
] as const) {
  test(`on ${device}: welcomed the first time, then straight back to the section left off`, async ({ page: staff, openContext, baseURL }) => {
    test.setTimeout(90_000);
    const name = `E2E Welcome ${device === 'desktop' ? 'Desk' : 'Phone'} Ltd`;
    const { applicationId } = await createBusiness(staff.request, baseURL!, name);
    const link = await inviteClient(staff.request, baseURL!, applicationId);

    const first = await clientPage(openContext, viewport);
    const client = first.page;
    await client.goto(link);
    await expect(client).toHaveURL((url) => url.pathname === `/applications/${applicationId}/welcome`);
    await expect(client.getByRole('heading', { level: 1, name: 'Welcome, E2E Client' })).toBeVisible();
    // Who asked, what is needed, the documents to have ready and how far along it is.
    await expect(client.getByText(`Sam Staff at Northwind Capital (demo) asked you to complete this application for ${name}.`)).toBeVisible();
    await expect(client.getByRole('region', { name: 'What is needed' })).toContainText(/The form has \d+ sections/);
    const documents = client.getByRole('region', { name: 'Documents to have ready' }).getByRole('listitem');
    await expect(documents.filter({ hasText: 'Business bank statements' })).toBeVisible();
    await expect(client.getByRole('region', { name: 'Progress so far' }).getByRole('progressbar')).toBeVisible();
    await expectAccessible(client, `the welcome on ${device}`);
    await expectNoSidewaysScroll(client, `the welcome is shown on ${device}`);

    // Staff's create filled in the business's name: the client continues from there.
    await expect(client.getByRole('region', { name: 'Progress so far' }).getByRole('progressbar', { name: /^1 of \d+ questions answered/ })).toBeVisible();
    // On to the form, and into its third section.
    await client.getByRole('link', { name: 'Continue the application' }).click();
    await expect(client).toHaveURL((url) => url.pathname === `/applications/${applicationId}`);
    await expect(formReady(client)).toBeVisible();
    const sections = client.getByRole('navigation', { name: 'Sections' });
    if (viewport) await sections.getByRole('button', { name: /^Sections/ }).click();
    const third = sections.getByRole('listitem').nth(2).getByRole('link');
    const label = (await third.locator('.section-label').textContent())!;
    const remembered = client.waitForResponse((r) => r.url().endsWith(`/api/applications/${applicationId}/place`) && r.request().method() === 'PUT');
    await third.click();
    await expect(client.getByRole('heading', { level: 2, name: label })).toBeFocused();
    expect((await remembered).status()).toBe(200);
    await expectAccessible(client, `the form on ${device}, in the third section`);
    expect(first.problems).toEqual([]);
    await first.context.close();

    // Later, in a fresh browser with the same link: no welcome, the form in that section.
    const later = await clientPage(openContext, viewport);
    await later.page.goto(link);
    await expect(later.page).toHaveURL((url) => url.pathname === `/applications/${applicationId}`);
    await expect(formReady(later.page)).toBeVisible();
    await expect(later.page.getByRole('heading', { level: 2, name: label })).toBeVisible();
    await expect(later.page.getByRole('navigation', { name: 'Sections' }).locator('a[aria-current="step"] .section-label')).toHaveText(label);
    await expectAccessible(later.page, `the form reopened on ${device}`);
    await expectNoSidewaysScroll(later.page, `the form reopened on ${device}`);
    expect(later.problems).toEqual([]);
  });
}
