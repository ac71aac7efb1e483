import { randomUUID } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import type { Page } from '@playwright/test';
import { addressText } from '../support/smtp-sink';
import { startStack, type StartedStack, type Stop } from './support/app-stack';
import { createBusiness } from './support/applications';
import { expectAccessible } from './support/axe';
import { test as base, expect } from './support/fixtures';
import { fillWholeForm, readContract } from './support/form-filler';
import { allSaved, formReady } from './support/form-page';
import { expectLoaded, expectNoSidewaysScroll, PHONE } from './support/phone';
import { DEMO_ACCOUNTS } from '../../server/auth/demo-users';

/**
 * Reminders as a client meets them: staff invite by mail, the mail arrives at a real SMTP server (this worker's
 * own, parsed), the client follows its link; reminder time runs on, a reminder arrives and the business page
 * shows it sent and the next one; the client submits, and no reminder follows.
 *
 * The app here is one of this file's own, as `npm start` with the documented demo setting runs it: reminder
 * time a day per second (REMINDER_TIME_SCALE=86400) at any hour, the schedule 30 and 180 days on, so the first
 * reminder falls 30 s after the invitation and the second 3 minutes after: time for the client to follow the
 * link before the first, and to submit before the second, on a busy machine. Its Outbox is its own too, so
 * other journeys' pages never list these reminders.
 */
const DESKTOP = { width: 1280, height: 900 } as const;
const SCHEDULE_DAYS = [30, 180];
const DAY_SECONDS = 1;

const test = base.extend<object, { remindersStack: StartedStack }>({
  remindersStack: [
    async ({}, provide) => {
      const stops: Stop[] = [];
      try {
        await provide(
          await startStack('full', stops, {
            REMINDER_TIME_SCALE: String(86_400 / DAY_SECONDS),
            REMINDER_QUIET_HOURS: 'off',
            REMINDER_SCHEDULE_DAYS: SCHEDULE_DAYS.join(','),
          }),
        );
      } finally {
        for (const stop of stops.reverse()) await stop();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ remindersStack }, provide) => provide(remindersStack.appUrl),
});
// Signed in to this file's app below, not to the shared one.
test.use({ storageState: { cookies: [], origins: [] } });

const staff = DEMO_ACCOUNTS.find((a) => a.role === 'staff')!;

/** The accessibility check at both widths (and no sideways scroll at 360 px); the page is left at `back`. */
async function checkAtBothWidths(page: Page, state: string, back: { width: number; height: number }) {
  for (const size of back.width === PHONE.width ? [PHONE, DESKTOP] : [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    if (size === PHONE) await expectNoSidewaysScroll(page, state);
    await expectAccessible(page, `${state} at ${size.width} px`);
  }
  await page.setViewportSize(back);
}

test('invite by mail, the client follows the link, a reminder arrives as time runs on, the client submits and reminders stop', async ({
  page,
  baseURL,
  openContext,
  remindersStack,
  browserProblems,
}) => {
  // The form filled, the schedule's 3 minutes, a dozen axe runs on a shared machine.
  test.setTimeout(600_000);
  const { smtp } = remindersStack;
  const mailsTo = (address: string) => smtp.received.filter((m) => addressText(m.to).includes(address));
  /** Waits for the mail of `subject` to `address` (deliveries may arrive in any order). */
  const mailOf = async (address: string, subject: string, timeout = 30_000): Promise<ParsedMail> => {
    await expect.poll(() => mailsTo(address).map((m) => m.subject), { timeout, message: `a mail "${subject}" to ${address}` }).toContain(subject);
    return mailsTo(address).find((m) => m.subject === subject)!;
  };

  await page.setViewportSize(DESKTOP);
  const signIn = await page.request.post('/api/auth/sign-in', { headers: { 'X-CSRF': '1', Origin: baseURL! }, data: { email: staff.email, password: staff.password } });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const name = `E2E Reminded ${randomUUID().slice(0, 8)} Ltd`;
  const email = `reminded-${randomUUID().slice(0, 8)}@example.test`;
  const { businessId, applicationId } = await createBusiness(page.request, baseURL!, name);
  // Staff fill the form first, in a tab of their own (the filling is set-up here: it is other journeys' subject),
  // so the client's part is to submit.
  const filler = await page.context().newPage();
  await filler.goto(`/applications/${applicationId}`);
  await formReady(filler, { timeout: 30_000 });
  await fillWholeForm(filler, await readContract(filler, applicationId));
  await allSaved(filler);
  await filler.close();

  // Staff invite the client by mail; the client submits without a review.
  await page.goto(`/businesses/${businessId}`);
  await expectLoaded(page);
  await page.getByLabel('Client’s name (optional)').fill('Riley Client');
  await page.getByLabel('Client’s email address (optional)').fill(email);
  await page.getByLabel('The client submits to the Portal without a review').check();
  await page.getByRole('button', { name: 'Create invitation link' }).click();
  await expect(page.getByText(`The link is being emailed to ${email}`)).toBeVisible();
  const link = await page.getByLabel('Invitation link', { exact: true }).inputValue();

  // The mail arrives at the SMTP server, with the link the page showed.
  const invitation = await mailOf(email, `Your application for ${name}: information needed`);
  expect([invitation.to].flat().flatMap((a) => a?.value ?? [])).toEqual([expect.objectContaining({ name: 'Riley Client', address: email })]);
  expect(invitation.text).toContain(link);
  expect(invitation.html).toContain(`href="${link}"`);

  // The client follows it, on a phone.
  const context = await openContext({ storageState: { cookies: [], origins: [] }, viewport: PHONE });
  const client = await context.newPage();
  const clientProblems: string[] = [];
  client.on('console', (m) => m.type() === 'error' && clientProblems.push(m.text()));
  client.on('pageerror', (e) => clientProblems.push(e.message));
  await client.goto(link);
  await expect(client.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
  await checkAtBothWidths(page, 'the business page with an invitation just mailed', DESKTOP);
  await checkAtBothWidths(client, 'the client’s welcome page, from the mailed link', PHONE);

  // Reminder time runs on: the first reminder arrives, knows the link was opened, and carries one-click unsubscribe.
  const reminder = await mailOf(email, `Reminder: your application for ${name}`, 60_000);
  expect(reminder.text).toContain('Hello Riley Client,');
  expect(reminder.text).not.toContain('You have not opened your application yet');
  expect(reminder.text).toContain(`Continue your application: ${link}`);
  const header = (mail: ParsedMail, key: string) => mail.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n[ \t]+/g, ' ').replace(/^[^:]+:\s*/, '');
  expect(header(reminder, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  expect(header(reminder, 'list-unsubscribe')).toMatch(new RegExp(`^<${baseURL!}/api/unsubscribe/inv_[0-9a-f]+\\.[A-Za-z0-9_-]+>$`));

  // The business page shows it sent, and the next one with its time.
  const panel = page.getByRole('region', { name: 'Reminders to Riley Client' });
  await expect(async () => {
    await page.reload();
    await expect(panel.getByText(/^Reminder: Sent, /)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(panel.getByText(/^Invitation: Sent, /)).toBeVisible();
  await expect(panel.getByText(/^Next reminder: .+\.$/)).toBeVisible();
  await checkAtBothWidths(page, 'the business page with a reminder sent and the next one due', DESKTOP);

  // The client submits, before the second reminder is due.
  await client.getByRole('link', { name: /^(Start|Continue) the application$/ }).click();
  await formReady(client, { timeout: 30_000 });
  await checkAtBothWidths(client, 'the client’s complete form', PHONE);
  await client.getByRole('button', { name: 'Submit application' }).click();
  await expect(client).toHaveURL(new RegExp(`/applications/${applicationId}/submitted$`), { timeout: 30_000 });
  await expect(client.getByRole('heading', { level: 1, name: 'Application sent' })).toBeVisible();
  await checkAtBothWidths(client, 'the client’s confirmation', PHONE);

  // Reminders stop: the page says why, and has no next one.
  await page.reload();
  await expectLoaded(page);
  await expect(panel.getByText('No more reminders: The application was submitted.')).toBeVisible();
  await expect(panel.getByText(/^Next reminder/)).toHaveCount(0);
  await checkAtBothWidths(page, 'the business page after the client submitted', DESKTOP);

  // Nothing more arrives: another invitation whose reminder falls after the stopped one's time goes the same way,
  // and once it has arrived, the stopped one would have too.
  const steps = await stepsOf(page, applicationId);
  const stopped = steps.find((s) => s.step === 'r2')!;
  expect(stopped).toMatchObject({ status: 'skipped', outcome: 'The application was submitted.' });
  const controlEmail = `control-${randomUUID().slice(0, 8)}@example.test`;
  const controlName = `E2E Control ${randomUUID().slice(0, 8)} Ltd`;
  const control = await createBusiness(page.request, baseURL!, controlName);
  const days = Math.max(1, Math.ceil((Date.parse(stopped.due_at) - Date.now()) / 1000 / DAY_SECONDS) + 2);
  const invited = await page.request.post(`/api/applications/${control.applicationId}/invitations`, {
    headers: { 'X-CSRF': '1', Origin: baseURL! },
    data: { client_email: controlEmail, reminder_days: [days] },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  await mailOf(controlEmail, `Reminder: your application for ${controlName}`, 60_000 + days * DAY_SECONDS * 1000);
  expect(Date.now()).toBeGreaterThan(Date.parse(stopped.due_at));
  expect(mailsTo(email).map((m) => m.subject)).toEqual([`Your application for ${name}: information needed`, `Reminder: your application for ${name}`]);

  expect(browserProblems).toEqual([]);
  expect(clientProblems).toEqual([]);
});

interface StepView {
  step: string;
  status: string;
  outcome: string | null;
  due_at: string;
}

/** The reminder steps of the application's one invitation, as staff's API lists them. */
async function stepsOf(page: Page, applicationId: string): Promise<StepView[]> {
  const list = await page.request.get(`/api/applications/${applicationId}/invitations`);
  expect(list.status(), await list.text()).toBe(200);
  const [inv] = ((await list.json()) as { items: { id: string }[] }).items;
  const view = await page.request.get(`/api/invitations/${inv!.id}/reminders`);
  expect(view.status(), await view.text()).toBe(200);
  return ((await view.json()) as { steps: StepView[] }).steps;
}
