import { randomUUID } from 'node:crypto';
import { DEMO_ACCOUNTS } from '../../server/auth/demo-users';
import { expectAccessible } from './support/axe';
import { createBusiness } from './support/applications';
import { test, expect } from './support/fixtures';
import { allSaved, formReady } from './support/form-page';
import { PHONE, expectNoSidewaysScroll } from './support/phone';

/**
 * The history under a question: closed it reads nothing; opened it says who changed the answer, from what to
 * what, and when — read again each time it is opened — and the application's timeline says it too; at desktop
 * and phone widths.
 */

const staff = DEMO_ACCOUNTS.find((a) => a.role === 'staff')!;

for (const [width, viewport] of [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', PHONE],
] as const) {
  test(`a question's history names who changed it, from what to what (${width})`, async ({ page, baseURL, browserProblems }) => {
    // Three accessibility scans of a long form page: slow on a busy machine.
    test.setTimeout(150_000);
    await page.setViewportSize(viewport);
    const name = `E2E History ${randomUUID().slice(0, 6)} Ltd`;
    const { applicationId, businessId } = await createBusiness(page.request, baseURL!, name);
    await page.goto(`/applications/${applicationId}`);
    await formReady(page);

    const legal = page.locator('[data-question="legal_name"]');
    const history = legal.locator('details.question-history');
    const summary = history.locator('summary');
    await expect(summary).toHaveAccessibleName('History');
    // Finding the field by its label still finds the field alone.
    await expect(page.getByLabel('Legal business name')).toHaveCount(1);
    await summary.click();
    await expect(history).toContainText('No changes recorded yet.');
    await expectAccessible(page, 'a history with no changes is open');

    await page.getByRole('textbox', { name: /^Legal business name/ }).fill(`${name} Renamed`);
    await allSaved(page);
    // Closed and opened again: read again, with the change just saved.
    await summary.click();
    await summary.click();
    const change = history.getByRole('listitem');
    await expect(change).toHaveCount(1);
    await expect(change).toContainText(`${staff.name} changed “${name}” to “${name} Renamed”`);
    await expectAccessible(page, 'a history with one change is open');
    await expectNoSidewaysScroll(page, 'a history is open');

    // The application's timeline, from its business page, tells the same.
    await page.goto(`/businesses/${businessId}`);
    await page.getByRole('link', { name: 'Timeline of the application' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Timeline' })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: `${staff.name} changed “Legal business name” from “${name}” to “${name} Renamed”` })).toHaveCount(1);
    await expectAccessible(page, 'the timeline');
    await expectNoSidewaysScroll(page, 'the timeline');
    expect(browserProblems).toEqual([]);
  });
}
