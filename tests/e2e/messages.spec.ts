import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { createBusiness } from './support/applications';
import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectLoaded, expectNoSidewaysScroll, PHONE } from './support/phone';

/**
 * Staff invite a client by mail from the business page, then read the message on the Outbox page as the
 * client got it (the app's SMTP server here is the test's own, so the message is really sent).
 */

/**
 * An opened mail's frame is left out of axe's run: it is sandboxed without scripts, so axe cannot run inside it, and
 * its attempt to inject itself is logged by Chromium as a console error ("Blocked script execution in
 * 'about:srcdoc'"). The mail's HTML is checked as a page of its own below. Closed messages have no frame at all.
 */
const MAIL_FRAMES = { exclude: ['.outbox-html'] };

const messageOf = (page: Page, subject: string, recipient: string) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { level: 2, name: subject }) }).filter({ hasText: recipient });

test('staff invite a client by mail and read the message in the Outbox, at desktop and 360 px', async ({ page, baseURL, browserProblems }) => {
  // Four axe runs (one over a page with a framed message) and a background delivery, at two widths.
  test.slow();
  const name = `E2E Mail ${randomUUID().slice(0, 8)} Ltd`;
  const email = `client-${randomUUID().slice(0, 8)}@example.test`;
  const { businessId } = await createBusiness(page.request, baseURL!, name);

  await page.goto(`/businesses/${businessId}`);
  await expectLoaded(page);
  await page.getByLabel('Client’s name (optional)').fill('Casey Client');
  await page.getByLabel('Client’s email address (optional)').fill(email);
  await expect(page.getByLabel('Copy the link only: do not email it to the client')).not.toBeChecked();
  await page.getByRole('button', { name: 'Create invitation link' }).click();
  await expect(page.getByText(`The link is being emailed to ${email}`)).toBeVisible();
  const link = await page.getByLabel('Invitation link', { exact: true }).inputValue();
  await expectAccessible(page, 'an invitation just mailed');

  await page.getByRole('link', { name: 'Outbox' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
  const subject = `Your application for ${name}: information needed`;
  const message = messageOf(page, subject, email);
  // Delivery happens in the background: the page says what is true when it is loaded.
  await expect(async () => {
    await page.reload();
    await expect(message.locator('dd[data-status]')).toHaveText('Sent', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(message).toContainText(`Casey Client <${email}>`);
  // No message is open, so the page holds no mail frames: axe runs over all of it, and nothing is blocked.
  await expect(page.locator('iframe')).toHaveCount(0);
  await expectAccessible(page, 'the outbox with the sent invitation');

  await message.getByText('Read the message').click();
  // The frame is looked at, not into: probing a script-less sandboxed frame makes Chromium log blocked scripts.
  // What it shows is the mail's HTML, read as a page of its own below.
  const frame = message.locator('iframe');
  await expect(frame).toBeVisible();
  expect(await frame.getAttribute('srcdoc')).toContain(`href="${link}"`);
  await expect(message.locator('pre')).toContainText(`Open your application: ${link}`);
  await expect(message.locator('iframe')).toHaveAttribute('title', `The message “${subject}” as formatted mail`);
  await expect(message.locator('iframe')).toHaveAttribute('sandbox', '');
  await expectAccessible(page, 'a message opened in the outbox', MAIL_FRAMES);

  await page.setViewportSize(PHONE);
  await expect(frame).toBeVisible();
  await expectNoSidewaysScroll(page, 'the outbox with a message open is shown on a phone');
  await expectAccessible(page, 'a message opened in the outbox at 360 px', MAIL_FRAMES);

  // The mail itself, as a page of its own at 360 px: readable without sideways scrolling, and accessible.
  // Reminders of the invitation may be listed too: the invitation is the one read.
  const outbox = (await (await page.request.get('/api/outbox')).json()) as { items: { recipient: string; template: string; html_body: string }[] };
  const html = outbox.items.find((m) => m.recipient === email && m.template === 'invitation')!.html_body;
  const mailPage = await page.context().newPage();
  try {
    await mailPage.setViewportSize(PHONE);
    await mailPage.setContent(html);
    await expect(mailPage.getByRole('heading', { level: 1, name: `Your application for ${name}` })).toBeVisible();
    await expect(mailPage.getByRole('link', { name: 'Open your application' })).toHaveAttribute('href', link);
    await expectNoSidewaysScroll(mailPage, 'the invitation mail is read on a phone');
    await expectAccessible(mailPage, 'the invitation mail at 360 px');
  } finally {
    await mailPage.close();
  }
  expect(browserProblems).toEqual([]);
});
