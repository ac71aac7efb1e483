import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { allSaved, formReady } from './support/form-page';
import { expectNoSidewaysScroll } from './support/phone';
import { clientOnFilledForm } from './support/review-journey';

/**
 * Review before submit (DESIGN.md §9), the way the two people do it: the client (on a 360 px phone) sends
 * the application for review; staff (at desktop width) ask for a change of one answer; the client sees
 * "1 thing to fix", follows its link to the field (focused, described by the comment), fixes it and sends it
 * back; staff see it resolved by the change and submit to the Portal.
 */
test('client sends for review, staff request a change, the client fixes it and sends it back, staff submit', async ({ page, baseURL, openContext, browserProblems }) => {
  test.setTimeout(300_000);
  const { client, clientProblems } = await clientOnFilledForm(page, baseURL!, openContext, 'E2E Review Ltd');
  await expect(client.getByRole('button', { name: 'Submit application' })).toHaveCount(0);
  await client.getByRole('button', { name: 'Send for review' }).click();
  await expect(client.getByRole('status').filter({ hasText: 'Your application is with the team for review' })).toBeVisible({ timeout: 20_000 });
  await expect(client.getByRole('textbox', { name: /^Legal business name/ })).toBeDisabled();
  await expectAccessible(client, 'the client’s application is in review');
  await expectNoSidewaysScroll(client, 'the application is in review');

  // Staff: the review panel asks for one change and sends it to the client.
  await page.reload();
  await formReady(page);
  const panel = page.getByRole('region', { name: 'Review', exact: true });
  await expect(panel).toContainText('In review');
  await panel.getByLabel('Answer to change').selectOption({ label: 'Legal business name' });
  await panel.getByLabel('What should change (the client reads this)').fill('Use the name on the certificate of incorporation.');
  await panel.getByLabel('Note for staff only (optional)').fill('Checked at Companies House');
  await panel.getByRole('button', { name: 'Request the change' }).click();
  await expect(panel.getByRole('list', { name: 'Change requests' }).getByRole('listitem')).toHaveCount(1);
  await panel.getByRole('button', { name: 'Send the requests to the client' }).click();
  await expect(panel).toContainText('Changes requested');
  await expectAccessible(page, 'staff requested a change');

  // The client: one thing to fix, linked to the field, which is focused and described by the comment.
  await client.reload();
  await formReady(client);
  const fix = client.getByRole('region', { name: '1 thing to fix' });
  await expect(fix).toContainText('Use the name on the certificate of incorporation.');
  await expect(fix).not.toContainText('Companies House');
  await expectAccessible(client, 'the client sees one thing to fix');
  await expectNoSidewaysScroll(client, 'one thing to fix is shown');
  await fix.getByRole('link', { name: 'Legal business name' }).click();
  const legal = client.getByRole('textbox', { name: /^Legal business name/ });
  await expect(legal).toBeFocused();
  await expect(legal).toHaveAccessibleDescription(/Change requested: Use the name on the certificate of incorporation\./);
  await legal.fill('E2E Review Limited');
  await allSaved(client);
  await client.getByRole('button', { name: 'Send back for review' }).click();
  await expect(client.getByRole('status').filter({ hasText: 'Your application is with the team for review' })).toBeVisible({ timeout: 20_000 });

  // Staff: resolved by the client's change (shown), then Submit to the Portal.
  await page.reload();
  await formReady(page);
  await expect(panel).toContainText('resolved by the client’s change');
  await expect(panel).toContainText('to “E2E Review Limited”');
  await expectAccessible(page, 'the change is resolved by the client');
  await page.getByRole('button', { name: 'Submit to the Portal' }).click();
  await expect(page.getByText(/^Submitted on/)).toBeVisible({ timeout: 20_000 });
  await page.reload();
  await expect(panel).toContainText('State: Submitted');
  expect(clientProblems).toEqual([]);
  // The staff page stays open while the client saves: a save of its own quoting the revision the client moved
  // is refused (412) and merged, as the form does with any other editor; anything else is a problem.
  expect(browserProblems.filter((p) => !p.text.includes('status of 412'))).toEqual([]);
});
