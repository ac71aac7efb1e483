import type { Locator, Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { TINY_PDF } from './support/form-filler';
import { allSaved, formReady } from './support/form-page';
import { expectNoSidewaysScroll, PHONE } from './support/phone';
import { clientOnFilledForm } from './support/review-journey';

const DESKTOP = { width: 1280, height: 900 };

/** The row of review mode that shows one answer (its label exactly), in the section shown. */
const rowOf = (mode: Locator, label: string) =>
  mode.getByRole('list', { name: /^Answers in / }).getByRole('listitem').filter({ has: mode.page().getByText(label, { exact: true }) });

/** Marks every answer of every section "Looks right", one at a time, as a reviewer would go through them. */
async function markEverything(page: Page, mode: Locator) {
  const sections = mode.getByLabel('Section to review');
  const count = await sections.locator('option').count();
  for (let s = 0; s < count; s++) {
    const pending = mode.getByRole('button', { name: 'Looks right', pressed: false });
    for (let left = await pending.count(); left > 0; left--) {
      await pending.first().click();
      await expect(pending).toHaveCount(left - 1, { timeout: 20_000 });
    }
    if (s + 1 < count) await mode.getByRole('button', { name: 'Next section' }).click();
  }
}

/**
 * Review mode (DESIGN.md §9): the client (360 px) sends the application for review; staff open review mode,
 * mark an answer "Looks right" with the keyboard, and request changes beside an answer and a file; the client
 * fixes both (the links focus the field and the file control), replies and sends it back; staff see the
 * marked answer changed since its mark, resolve the file's request, mark every answer until "Reviewed M of M",
 * and submit to the Portal.
 */
test('staff review section by section: marks, changes asked of an answer and a file, everything looks right, submitted', async ({ page, baseURL, openContext, browserProblems }) => {
  test.setTimeout(420_000);
  const { applicationId, client, clientProblems } = await clientOnFilledForm(page, baseURL!, openContext, 'E2E Review Mode Ltd');
  await client.getByRole('button', { name: 'Send for review' }).click();
  await expect(client.getByRole('status').filter({ hasText: 'Your application is with the team for review' })).toBeVisible({ timeout: 20_000 });

  // Staff open review mode: nothing reviewed yet.
  await page.reload();
  await formReady(page);
  const panel = page.getByRole('region', { name: 'Review', exact: true });
  await panel.getByRole('button', { name: 'Review mode' }).click();
  const progress = panel.getByRole('status').filter({ hasText: /^Reviewed \d+ of \d+$/ });
  await expect(progress).toHaveText(/^Reviewed 0 of \d+$/, { timeout: 20_000 });
  const total = Number((await progress.textContent())!.match(/of (\d+)/)![1]);
  expect(total).toBeGreaterThan(5);
  await expectAccessible(page, 'review mode is open');

  // A second staff page in review mode sees the other's marks live.
  const second = await page.context().newPage();
  await second.setViewportSize(DESKTOP);
  await second.goto(`/applications/${applicationId}`);
  await formReady(second);
  const secondPanel = second.getByRole('region', { name: 'Review', exact: true });
  await secondPanel.getByRole('button', { name: 'Review mode' }).click();
  await expect(rowOf(secondPanel, 'Legal business name').getByRole('button', { name: 'Looks right' })).toHaveAttribute('aria-pressed', 'false', { timeout: 20_000 });

  // Keyboard only: "Looks right" is a toggle that keeps focus once pressed.
  const legalRow = rowOf(panel, 'Legal business name');
  const legalMark = legalRow.getByRole('button', { name: 'Looks right' });
  await legalMark.focus();
  await page.keyboard.press('Enter');
  await expect(legalMark).toHaveAttribute('aria-pressed', 'true');
  await expect(legalMark).toBeFocused();
  await expect(progress).toHaveText(`Reviewed 1 of ${total}`);
  await expect(rowOf(secondPanel, 'Legal business name').getByRole('button', { name: 'Looks right' })).toHaveAttribute('aria-pressed', 'true', { timeout: 20_000 });
  await expect(secondPanel.getByRole('status').filter({ hasText: /^Reviewed/ })).toHaveText(`Reviewed 1 of ${total}`);
  await second.close();

  // A change asked of that answer, beside it; focus goes back to its button.
  const askLegal = legalRow.getByRole('button', { name: 'Request a change' });
  await askLegal.click();
  await expect(panel.getByLabel('What should change (the client reads this)')).toBeFocused();
  await panel.getByLabel('What should change (the client reads this)').fill('Use the name on the certificate of incorporation.');
  await panel.getByRole('button', { name: 'Request the change' }).click();
  await expect(askLegal).toBeFocused();
  await expect(legalRow).toContainText('A change is requested.');

  // … and of one file, in its own section.
  await panel.getByLabel('Section to review').selectOption({ label: (await panel.getByLabel('Section to review').locator('option', { hasText: /^Financials/ }).textContent())! });
  const fileRow = panel.getByRole('list', { name: /^Answers in / }).getByRole('listitem').filter({ hasText: `: ${TINY_PDF.name}` }).first();
  const fileLabel = (await fileRow.locator('.review-answer-label').textContent())!;
  await fileRow.getByRole('button', { name: 'Request a change' }).click();
  await panel.getByLabel('What should change (the client reads this)').fill('This statement is three months old: attach this month’s.');
  await expectAccessible(page, 'a change is being asked of a file');
  await panel.getByRole('button', { name: 'Request the change' }).click();
  await expect(fileRow).toContainText('A change is requested.');
  await expect(panel.getByRole('list', { name: 'Change requests' }).getByRole('listitem')).toHaveCount(2);

  // At 360 px review mode fits without sideways scrolling.
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page, 'review mode is open on a phone');
  await expectAccessible(page, 'review mode on a phone');
  await page.setViewportSize(DESKTOP);
  await panel.getByRole('button', { name: 'Send the requests to the client' }).click();
  await expect(panel).toContainText('Changes requested');

  // The client: two things to fix, each link focusing its control, which reads the comment.
  await client.reload();
  await formReady(client);
  await expect(client.getByRole('region', { name: '2 things to fix' })).toBeVisible();
  // Fixing the answer resolves its request: the list then names one thing.
  const fix = client.getByRole('region', { name: /^[12] things? to fix$/ });
  await expectAccessible(client, 'the client sees two things to fix');
  await expectNoSidewaysScroll(client, 'two things to fix are shown');
  await fix.getByRole('link', { name: 'Legal business name' }).click();
  const legal = client.getByRole('textbox', { name: /^Legal business name/ });
  await expect(legal).toBeFocused();
  await legal.fill('E2E Review Mode Limited');
  await allSaved(client);
  await fix.getByRole('link', { name: /\(one file\)$/ }).click();
  const chooser = client.locator('input[type="file"]:focus');
  await expect(chooser).toHaveCount(1);
  await expect(chooser).toHaveAccessibleDescription(/Change requested: This statement is three months old/);
  const question = fileLabel.split(':')[0]!;
  const group = client.getByRole('group', { name: new RegExp(`^${question.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
  await expect(group.locator('input[type="file"]')).toBeFocused();
  await group.getByRole('button', { name: `Remove ${TINY_PDF.name}` }).click();
  await expect(group.getByRole('link', { name: TINY_PDF.name })).toHaveCount(0);
  await group.locator('input[type="file"]').setInputFiles({ ...TINY_PDF, name: 'statement-this-month.pdf' });
  await expect(group.getByRole('link', { name: 'statement-this-month.pdf' })).toBeVisible({ timeout: 20_000 });
  const fileFix = fix.getByRole('listitem').filter({ hasText: '(one file)' });
  await fileFix.getByText('Reply to the team').click();
  await fileFix.getByLabel('Your reply').fill('Attached this month’s statement.');
  await fileFix.getByRole('button', { name: 'Send reply' }).click();
  await expect(fileFix).toContainText('Attached this month’s statement.');
  await expectAccessible(client, 'the client fixed both and replied');
  await client.getByRole('button', { name: 'Send back for review' }).click();
  await expect(client.getByRole('status').filter({ hasText: 'Your application is with the team for review' })).toBeVisible({ timeout: 20_000 });

  // Staff: the answer marked before has changed since (no longer reviewed); the file's request is resolved by hand.
  await page.reload();
  await formReady(page);
  await expect(panel).toContainText('resolved by the client’s change');
  const requests = panel.getByRole('list', { name: 'Change requests' });
  await requests.getByRole('listitem').filter({ hasText: fileLabel.split(':')[0]! }).getByRole('button', { name: 'Mark resolved' }).click();
  await expect(requests.getByRole('button', { name: 'Mark resolved' })).toHaveCount(0);
  await panel.getByRole('button', { name: 'Review mode' }).click();
  await expect(progress).toHaveText(/^Reviewed 0 of \d+$/, { timeout: 20_000 });
  await expect(rowOf(panel, 'Legal business name')).toContainText('Changed since it was marked: review it again.');
  await expect(rowOf(panel, 'Legal business name').getByRole('button', { name: 'Looks right' })).toHaveAttribute('aria-pressed', 'false');
  await expectAccessible(page, 'a marked answer changed since');

  await markEverything(page, panel);
  await expect(progress).toHaveText(new RegExp(`^Reviewed (\\d+) of \\1$`));
  await expectAccessible(page, 'every answer looks right');
  await page.getByRole('button', { name: 'Submit to the Portal' }).click();
  await expect(page.getByText(/^Submitted on/)).toBeVisible({ timeout: 20_000 });
  expect(clientProblems).toEqual([]);
  // As in the journey without review mode: the staff page's own save quoting a revision the client moved is a 412, merged.
  expect(browserProblems.filter((p) => !p.text.includes('status of 412'))).toEqual([]);
});
