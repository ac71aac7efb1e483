import type { Locator, Page } from '@playwright/test';
import { DEMO_ACCOUNTS } from '../../server/auth/demo-users';
import { seedDocuments } from '../../server/sandbox/seed/documents';
import { expectAccessible } from './support/axe';
import { createBusiness, writeAnswer } from './support/applications';
import { applicationWithRun, setText, writeHeaders } from './support/autofill-run';
import { test, expect, type OpenContext } from './support/fixtures';
import { formReady } from './support/form-page';
import { expectNoSidewaysScroll, PHONE } from './support/phone';

/**
 * Autofill in the browser against the sandbox: preparing text and documents, a run's live progress, a
 * failed run and its retry, 412s on the preparation explained, then the review queue (accept, dismiss,
 * accept all without concerns, keyboard shortcuts, stale suggestions) and the accepted answers in the form.
 * The sandbox clock runs at normal speed: files take about 3.5 s to read, a run about 6 s.
 */

const reviewer = DEMO_ACCOUNTS.find((a) => a.role === 'reviewer')!;
const card = (page: Page, name: string | RegExp) => page.getByRole('article', { name });
const openSection = (page: Page, label: string) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: new RegExp(`^${label}`) }).click();

/* Setting things up through the BFF's API, as another person or tab would. */

/** Drops files on an element as a person dragging them from the desktop would. */
async function dropFiles(target: Locator, files: Array<{ name: string; mimeType: string; buffer: Buffer }>) {
  const payload = files.map((f) => ({ name: f.name, type: f.mimeType, bytes: [...f.buffer] }));
  const dataTransfer = await target.page().evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
    return dt;
  }, payload);
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

test('a whole Autofill round: text and documents → run → review → the accepted answers in the form', async ({ page, baseURL }) => {
  test.slow();
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Autofill Café');
  await page.goto(`/applications/${applicationId}`);
  await formReady(page, { timeout: 15_000 });
  await page.getByRole('navigation', { name: 'Autofill' }).getByRole('link', { name: 'Autofill' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Autofill' })).toBeVisible();
  const start = page.getByRole('button', { name: 'Start Autofill' });
  await expect(start).toBeDisabled();
  await expect(page.getByText('Add some text or a readable document')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Fast' })).toBeChecked();
  await expectAccessible(page, 'the preparation is empty');

  await page.getByLabel('Text for Autofill').fill('Contact name: Luca Fontana\nPreferred contact: phone');
  await expect(page.getByText('Save your text first')).toBeVisible();
  await page.getByRole('button', { name: 'Save text' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Text saved.' })).toBeVisible();

  // Two documents chosen, the PDF dropped on the zone.
  const [summary, csv, pdf] = seedDocuments().map((d) => ({ name: d.name, mimeType: d.contentType, buffer: d.bytes }));
  await page.getByLabel('Add documents').setInputFiles([summary!, csv!]);
  await dropFiles(page.getByTestId('evidence-drop-zone'), [pdf!]);
  const files = page.getByRole('table');
  for (const name of [summary!.name, csv!.name, pdf!.name]) await expect(files.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  await expectAccessible(page, 'documents are being read');
  for (const name of [summary!.name, csv!.name, pdf!.name]) {
    await expect(files.getByRole('row', { name: new RegExp(name) }).getByText('Ready')).toBeVisible({ timeout: 20_000 });
  }
  await expectAccessible(page, 'every document has been read');

  await expect(start).toBeEnabled();
  await start.click();
  const progress = page.getByRole('progressbar', { name: 'Autofill progress' });
  await expect(progress).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Reading the evidence|Matching|Drafting|Waiting to start/ })).toBeVisible();
  await expectAccessible(page, 'a run is in progress');
  await expect(page.getByRole('status').filter({ hasText: 'Finished: 35 suggestions, 3 with warnings.' })).toBeVisible({ timeout: 30_000 });
  await expect(progress).toHaveJSProperty('value', 12);
  await expectAccessible(page, 'the run has finished');

  await page.getByRole('link', { name: 'Review the suggestions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Review Autofill suggestions' })).toBeVisible();
  await expect(page.getByText('35 suggestions: 35 waiting')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Business details' })).toBeVisible();
  const legal = card(page, 'Legal business name');
  // The name staff gave at create (prefilled into the application) beside what the document says.
  await expect(legal.getByRole('deletion')).toContainText('E2E Autofill Café');
  await expect(legal.getByRole('insertion')).toContainText('Harbour Street Hospitality Ltd');
  await expect(legal.getByText('business-summary.txt')).toBeVisible();
  await expect(legal.getByText('Legal name: Harbour Street Hospitality Ltd')).toBeVisible();
  const preferred = card(page, 'Preferred way to be contacted');
  await expect(preferred.getByText('from the text')).toBeVisible();
  await expect(preferred.getByText('Conflicting evidence')).toBeVisible();
  await expectAccessible(page, 'the review queue is open');

  // Accept with the button; the card shows the new current answer.
  await legal.getByRole('button', { name: 'Accept' }).click();
  await expect(legal.getByText('Accepted', { exact: true })).toBeVisible();
  await expect(legal.getByRole('definition').first()).toHaveText('Harbour Street Hospitality Ltd');
  await expect(page.getByRole('status').filter({ hasText: 'Accepted “Legal business name”.' })).toBeVisible();

  // The keyboard: ? lists the shortcuts, j moves on, d dismisses the card in focus.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expectAccessible(page, 'the shortcuts dialog is open');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await legal.getByRole('heading', { name: 'Legal business name' }).click();
  await expect(legal).toBeFocused();
  await page.keyboard.press('j');
  await expect(card(page, 'Trading name')).toBeFocused();
  const signed = card(page, 'Date signed');
  await signed.getByRole('heading').click();
  await expect(signed.getByText('Low confidence')).toBeVisible();
  await page.keyboard.press('d');
  await expect(signed.getByText('Dismissed', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Dismissed “Date signed”.' })).toBeVisible();

  const acceptAll = page.getByRole('button', { name: 'Accept all without concerns (31)' });
  await acceptAll.click();
  await expect(page.getByRole('status').filter({ hasText: 'Accepted 31 of 31 suggestions without concerns.' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('35 suggestions: 2 waiting, 32 accepted, 1 dismissed')).toBeVisible();
  await expect(card(page, 'Number of employees').getByText('Waiting for review')).toBeVisible();
  await expect(card(page, 'How much funding do you need?').getByRole('definition').first()).toHaveText('85,000');
  await expectAccessible(page, 'the suggestions without concerns are accepted');

  await page.getByRole('link', { name: 'Application form' }).click();
  await formReady(page, { timeout: 15_000 });
  await expect(page.getByRole('textbox', { name: /^Legal business name/ })).toHaveValue('Harbour Street Hospitality Ltd');
  await expect(page.getByRole('textbox', { name: /^Trading name/ })).toHaveValue('Harbour Street Café');
  // Suggestions with concerns were left for a person: still unanswered.
  await expect(page.getByRole('textbox', { name: /^Number of employees/ })).toHaveValue('');
  await openSection(page, 'Contact');
  await expect(page.getByRole('textbox', { name: /^Contact name/ })).toHaveValue('Luca Fontana');
  await openSection(page, 'Funding request');
  await expect(page.getByRole('textbox', { name: /^How much funding do you need/ })).toHaveValue(/85,?000/);
  await openSection(page, 'Declarations');
  await expect(page.locator('[id^="f-"][id$=".signature_date.value"]')).toHaveValue('');
  await expectAccessible(page, 'the form shows the accepted answers');
});

test('a stale suggestion is marked and cannot be accepted', async ({ page, baseURL }) => {
  const applicationId = await applicationWithRun(
    page.request,
    baseURL!,
    'E2E Stale Ltd',
    'Legal name: Stale Test Ltd\nTrading name: Stale Café\nWebsite: www.stale.example',
  );
  // Changed after the run, before the review opens.
  await writeAnswer(page.request, baseURL!, applicationId, 'trading_name', 'Stale Coffee');
  await page.goto(`/applications/${applicationId}/review`);
  const trading = card(page, 'Trading name');
  await expect(trading.getByText('Stale — the answer changed since')).toBeVisible();
  await expect(trading.getByRole('button', { name: 'Accept' })).toBeDisabled();
  await expect(trading.locator('del')).toHaveText('[removed: Coffee]');
  await expect(trading.locator('ins')).toHaveText('[added: Café]');
  await expectAccessible(page, 'a suggestion is stale');

  // Changed while the review is open: the accept is refused, and the card says why.
  await writeAnswer(page.request, baseURL!, applicationId, 'legal_name', 'Someone Else Ltd');
  const legal = card(page, 'Legal business name');
  await legal.getByRole('button', { name: 'Accept' }).click();
  await expect(legal.getByRole('alert')).toContainText('the answer changed after this suggestion was made');
  await expect(legal.getByText('Stale — the answer changed since')).toBeVisible();
  await expect(legal.getByRole('button', { name: 'Accept' })).toBeDisabled();
  await expect(legal.locator('del')).toHaveText('[removed: Someone Else]');
  await expect(legal.locator('ins')).toHaveText('[added: Stale Test]');
  await expectAccessible(page, 'an accept was refused as stale');

  await card(page, 'Website').getByRole('button', { name: 'Accept' }).click();
  await expect(card(page, 'Website').getByText('Accepted', { exact: true })).toBeVisible();
});

test('a failed run says why and is retried; changes made elsewhere are re-read and explained', async ({ page, baseURL, openContext }) => {
  test.slow();
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Retry Ltd');
  await page.goto(`/applications/${applicationId}/autofill`);
  const text = page.getByLabel('Text for Autofill');

  // Someone else saves the text while this person types: theirs is shown, mine stays in the box.
  await text.fill('Legal name: Mine Ltd');
  await setText(page.request, baseURL!, applicationId, 'Legal name: Theirs Ltd');
  await page.getByRole('button', { name: 'Save text' }).click();
  const conflict = page.getByRole('alert').filter({ hasText: 'The text was changed elsewhere' });
  await expect(conflict).toBeVisible();
  await expect(conflict.getByText('Legal name: Theirs Ltd')).toBeVisible();
  await expect(text).toHaveValue('Legal name: Mine Ltd');
  await expectAccessible(page, 'the text was changed elsewhere');
  await text.fill('Employees: 7\n[[fail]]');
  await page.getByRole('button', { name: 'Save text' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Text saved.' })).toBeVisible();
  await expect(conflict).toHaveCount(0);

  // The preparation changes elsewhere before Start: the start is refused, explained, and the page re-reads.
  await page.getByRole('radio', { name: 'Thinking' }).check();
  await expect(page.getByRole('status').filter({ hasText: 'Mode set to thinking.' })).toBeVisible();
  await setText(page.request, baseURL!, applicationId, 'Employees: 8\n[[fail]]');
  await page.getByRole('button', { name: 'Start Autofill' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The preparation changed after you last saw it' })).toBeVisible();
  await expect(text).toHaveValue('Employees: 8\n[[fail]]');
  await expectAccessible(page, 'a start was refused as stale');

  await page.getByRole('button', { name: 'Start Autofill' }).click();
  const failure = page.getByRole('alert').filter({ hasText: 'Why:' });
  await expect(failure).toContainText('[[fail]]', { timeout: 20_000 });
  await expectAccessible(page, 'the run failed');

  await text.fill('Employees: 8');
  await page.getByRole('button', { name: 'Save text' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Text saved.' })).toBeVisible();
  await failure.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText(/attempt 2/)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Finished: 1 suggestion.' })).toBeVisible({ timeout: 30_000 });
  await expect(failure).toHaveCount(0);

  // The invited client prepares too, but reviewing is not theirs: the review page sends them back here.
  const clientContext = await openContext({ storageState: { cookies: [], origins: [] } });
  const invite = await page.request.post(`/api/applications/${applicationId}/invitations`, { headers: writeHeaders(baseURL!), data: { client_name: 'E2E Client' } });
  const link = ((await invite.json()) as { link: string }).link;
  const client = await clientContext.newPage();
  await client.goto(link);
  await client.goto(`/applications/${applicationId}/review`);
  await expect(client).toHaveURL(new RegExp(`/applications/${applicationId}/autofill$`));
  await expect(client.getByText('Staff will review the suggestions')).toBeVisible();
  await expect(client.getByRole('button', { name: 'Save text' })).toBeVisible();
  await expectAccessible(client, 'the client sees the preparation');
});

async function signInAsReviewer(openContext: OpenContext) {
  // A fresh context starts signed out (not with the project's staff session).
  const context = await openContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email address').fill(reviewer.email);
  await page.getByLabel('Password').fill(reviewer.password);
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByRole('navigation', { name: 'Account' })).toContainText('reviewer');
  return page;
}

test('a reviewer reviews with the keyboard and follows, but does not change, the preparation', async ({ page, baseURL, openContext }) => {
  // A run, then many steps in two browsers: slow on a busy machine.
  test.setTimeout(90_000);
  const applicationId = await applicationWithRun(
    page.request,
    baseURL!,
    'E2E Reviewer Ltd',
    'Legal name: Reviewed Ltd\nTrading name: Reviewed\nEmployees: 9',
  );
  const rev = await signInAsReviewer(openContext);
  await rev.goto(`/applications/${applicationId}/autofill`);
  await expect(rev.getByLabel('Text for Autofill')).toHaveAttribute('readonly', '');
  await expect(rev.getByRole('button', { name: 'Start Autofill' })).toHaveCount(0);
  await expect(rev.getByRole('status').filter({ hasText: 'Finished: 3 suggestions.' })).toBeVisible();
  await expectAccessible(rev, 'a reviewer follows the preparation');

  await rev.getByRole('link', { name: 'Review the suggestions' }).click();
  const legal = card(rev, 'Legal business name');
  await expect(legal).toBeVisible();
  // j from nowhere focuses the first card; a accepts it and moves on.
  await rev.keyboard.press('j');
  await expect(legal).toBeFocused();
  await rev.keyboard.press('a');
  await expect(legal.getByText('Accepted', { exact: true })).toBeVisible();
  await expect(card(rev, 'Trading name')).toBeFocused();
  // Nothing waits above any more: k stays, and says so.
  await rev.keyboard.press('k');
  await expect(card(rev, 'Trading name')).toBeFocused();
  await expect(rev.getByRole('status').filter({ hasText: 'No suggestion waiting above.' })).toBeVisible();
  await rev.keyboard.press('ArrowDown');
  await expect(card(rev, 'Number of employees')).toBeFocused();
  await rev.keyboard.press('k');
  await expect(card(rev, 'Trading name')).toBeFocused();
  await rev.keyboard.press('d');
  await expect(card(rev, 'Trading name').getByText('Dismissed', { exact: true })).toBeVisible();
  await expectAccessible(rev, 'a reviewer has decided two suggestions');

  await rev.getByRole('link', { name: 'Application form' }).click();
  await formReady(rev, { timeout: 15_000 });
  await expect(rev.getByRole('textbox', { name: /^Legal business name/ })).toHaveValue('Reviewed Ltd');
  await expect(rev.getByRole('textbox', { name: /^Trading name/ })).toHaveValue('');
});

for (const [width, viewport] of [
  ['desktop', null],
  ['a 360 px phone', PHONE],
] as const) {
  test(`j and k move between the suggestions still waiting, on ${width}`, async ({ page, baseURL, browserProblems }) => {
    // Several steps with axe in each: slow on a busy machine.
    test.setTimeout(120_000);
    if (viewport) await page.setViewportSize(viewport);
    const applicationId = await applicationWithRun(
      page.request,
      baseURL!,
      'E2E Queue Keys Ltd',
      'Legal name: Queue Keys Ltd\nTrading name: Queue Keys\nEmployees: 12',
    );
    await page.goto(`/applications/${applicationId}/review`);
    const [legal, trading, employees] = [card(page, 'Legal business name'), card(page, 'Trading name'), card(page, 'Number of employees')];
    await expect(employees).toBeVisible();
    await trading.getByRole('button', { name: 'Dismiss' }).click();
    await expect(trading.getByText('Dismissed', { exact: true })).toBeVisible();

    // From the first card, j skips the dismissed one; k comes back over it.
    await legal.getByRole('heading').click();
    await expect(legal).toBeFocused();
    await page.keyboard.press('j');
    await expect(employees).toBeFocused();
    await page.keyboard.press('k');
    await expect(legal).toBeFocused();
    // d dismisses it and goes on to the next one waiting, not to the dismissed one after it.
    await page.keyboard.press('d');
    await expect(legal.getByText('Dismissed', { exact: true })).toBeVisible();
    await expect(employees).toBeFocused();
    await page.keyboard.press('k');
    await expect(employees).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: 'No suggestion waiting above.' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /cannot be dismissed/ })).toHaveCount(0);
    await expectAccessible(page, `the queue was worked with the keyboard on ${width}`);
    if (viewport) await expectNoSidewaysScroll(page, 'the queue was worked with the keyboard');
    expect(browserProblems).toEqual([]);
  });
}

for (const [width, viewport] of [
  ['desktop', null],
  ['a 360 px phone', PHONE],
] as const) {
  test(`after a run: the lines of the text it could not use, and its date written as every date is, on ${width}`, async ({ page, baseURL, browserProblems }) => {
    // Several steps with axe in each: slow on a busy machine.
    test.setTimeout(120_000);
    if (viewport) await page.setViewportSize(viewport);
    const applicationId = await applicationWithRun(
      page.request,
      baseURL!,
      'E2E Unused Lines Ltd',
      'Legal name: Unused Lines Ltd\nThe weather was lovely on the day we opened.\nEmployees: 12',
    );
    await page.goto(`/applications/${applicationId}/autofill`);
    await expect(page.getByRole('status').filter({ hasText: /^Finished: \d+ suggestions?/ })).toBeVisible();
    // "28 Nov 2026, 04:03", as on every other page (not toLocaleString's "28/11/2026, 04:03:13").
    await expect(page.getByText(/^Started \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/)).toBeVisible();
    const unused = page.getByRole('region', { name: 'Lines Autofill could not use' });
    await expect(unused).toContainText('One line of the text gave no suggestion');
    await expect(unused.getByRole('listitem')).toHaveText(['The weather was lovely on the day we opened.']);
    await expectAccessible(page, `the finished run lists the unused line on ${width}`);
    if (viewport) await expectNoSidewaysScroll(page, 'the finished run lists the unused line');
    expect(browserProblems).toEqual([]);
  });
}
