import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { createBusiness } from './support/applications';
import { test, expect } from './support/fixtures';
import { TINY_PDF } from './support/form-filler';
import { allSaved, formReady } from './support/form-page';
import { writeHeaders } from './support/autofill-run';
import { PHONE, expectNoSidewaysScroll } from './support/phone';

/**
 * The parts of the form a person works by hand: the keyboard alone, files refused before upload,
 * and repeatable groups within their limits.
 */


/** Presses Tab until the target has focus (a person finding it by keyboard), failing after `max` presses. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab did not reach ${target}`);
}

test('the form works with the keyboard alone', async ({ page, baseURL }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Keyboard Ltd');
  await page.goto(`/applications/${applicationId}`);
  await formReady(page);

  // Skip link, then the section navigation.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  const sections = page.getByRole('navigation', { name: 'Sections' });
  await tabTo(page, sections.getByRole('link', { name: /^Contact/ }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'Contact' })).toBeFocused();

  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: /^Contact name/ })).toBeFocused();
  await page.keyboard.type('Kay Board');
  await tabTo(page, page.getByRole('textbox', { name: /^Email address/ }));
  await page.keyboard.type('kay@keyboard.example');

  // A repeatable group: add an item, type into it, remove it again, all by keyboard.
  await tabTo(page, sections.getByRole('link', { name: /^Owners/ }), { backwards: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'Owners' })).toBeFocused();
  await tabTo(page, page.getByRole('button', { name: 'Add owner', exact: true }));
  await page.keyboard.press('Enter');
  const fullName = page.getByRole('textbox', { name: /^Full name/ });
  await expect(fullName).toBeFocused();
  await page.keyboard.type('Olive Owner');
  await allSaved(page);
  await expectAccessible(page, 'an owner was added by keyboard');

  await page.reload();
  await formReady(page);
  await expect(page.getByRole('textbox', { name: /^Full name/ })).toHaveValue('Olive Owner');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: /^Contact/ }).click();
  await expect(page.getByRole('textbox', { name: /^Contact name/ })).toHaveValue('Kay Board');
  await expect(page.getByRole('textbox', { name: /^Email address/ })).toHaveValue('kay@keyboard.example');
});

test('files are checked before upload, then uploaded with progress, listed and removed', async ({ page, baseURL }) => {
  // Handing a 26 MB file to the browser takes tens of seconds on a busy machine.
  test.setTimeout(150_000);
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Files Ltd');
  await page.goto(`/applications/${applicationId}?section=financials`);
  await formReady(page);
  const accounts = page.getByRole('group', { name: /Latest annual accounts/ });
  const input = accounts.locator('input[type="file"]');

  await input.setInputFiles({ name: 'virus.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
  await expect(accounts.getByRole('alert')).toContainText('virus.exe: this type of file is not accepted');
  await input.setInputFiles({ name: 'huge.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(26 * 1024 * 1024, 0x20) });
  await expect(accounts.getByRole('alert')).toContainText('huge.pdf is 26 MB');
  await expectAccessible(page, 'a file was refused before upload');

  await input.setInputFiles(TINY_PDF);
  await expect(accounts.getByRole('link', { name: TINY_PDF.name })).toBeVisible({ timeout: 15_000 });
  // One file is all this question takes: the chooser says so and a second one is refused.
  await input.setInputFiles({ ...TINY_PDF, name: 'second.pdf' });
  await expect(accounts.getByRole('alert')).toContainText('only 1 file can be attached');

  await page.reload();
  await formReady(page);
  await expect(accounts.getByRole('link', { name: TINY_PDF.name })).toBeVisible();
  await accounts.getByRole('button', { name: `Remove ${TINY_PDF.name}` }).click();
  await expect(accounts.getByRole('link', { name: TINY_PDF.name })).toHaveCount(0);
  await page.reload();
  await formReady(page);
  await expect(accounts.getByText('No files attached').or(accounts.locator('input[type="file"]'))).toBeVisible();
  await expect(accounts.getByRole('link', { name: TINY_PDF.name })).toHaveCount(0);
});

test('repeatable groups stay within min_items and max_items', async ({ page, baseURL }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Groups Ltd');
  await page.goto(`/applications/${applicationId}?section=owners`);
  await formReady(page);
  const owners = page.locator('[data-group="owners"]').first();
  const add = owners.getByRole('button', { name: 'Add owner', exact: true });
  for (let n = 1; n <= 4; n++) {
    await add.click();
    await expect(owners.locator(':scope > ol.items > li')).toHaveCount(n);
  }
  await expect(add).toBeDisabled();
  await expect(owners.getByText('The most this group takes has been added.')).toBeVisible();
  await expect(owners.getByRole('heading', { name: /Owners \(4 of at most 4\)/ })).toBeVisible();

  // Nested: an address inside the second owner.
  const second = owners.locator(':scope > ol.items > li').nth(1);
  await second.getByRole('button', { name: 'Add owner address' }).click();
  await expect(second.locator('[data-group="owner_addresses"] > ol.items > li')).toHaveCount(1);

  // Removing asks first; the second owner takes its address with it.
  await owners.getByRole('button', { name: 'Remove Owner 2' }).click();
  await owners.getByRole('button', { name: 'Yes, remove Owner 2' }).click();
  await expect(owners.locator(':scope > ol.items > li')).toHaveCount(3);
  await expect(add).toBeEnabled();
  for (const n of [3, 2]) {
    await owners.getByRole('button', { name: `Remove Owner ${n}` }).click();
    await owners.getByRole('button', { name: `Yes, remove Owner ${n}` }).click();
    await expect(owners.locator(':scope > ol.items > li')).toHaveCount(n - 1);
  }
  // One owner is the least this group takes.
  await expect(owners.getByRole('button', { name: 'Remove Owner 1' })).toBeDisabled();
  await expectAccessible(page, 'a group is at its minimum');
  await page.reload();
  await formReady(page);
  await expect(page.locator('[data-group="owners"]').first().locator(':scope > ol.items > li')).toHaveCount(1);
});

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 720 }],
  ['phone', PHONE],
] as const) {
  test(`the section links stay where they are while a count changes under them (${label})`, async ({ page, baseURL, browserProblems }) => {
    await page.setViewportSize(viewport);
    // A deal application: "Directors and guarantors", the open section's label in bold, is long enough to share
    // its row with a count only just; its count going from "0 of 1" to a tick must not move the links below it.
    const { businessId } = await createBusiness(page.request, baseURL!, 'E2E Steady Sections Ltd');
    const created = await page.request.post('/api/deals', {
      headers: writeHeaders(baseURL!, { 'Idempotency-Key': randomUUID() }),
      data: { name: 'Steady sections', business_id: businessId, recipient_id: 'rcpt_harbourbank' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { deal } = (await created.json()) as { deal: { application: { id: string } } };
    await page.goto(`/deal-applications/${deal.application.id}?section=directors`);
    await formReady(page);
    const nav = page.getByRole('navigation', { name: 'Sections' });
    // On a phone the sections are a menu behind one button: open it to see them.
    const shown = async () => {
      const toggle = nav.getByRole('button', { name: /^Sections/ });
      if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
      await expect(nav.getByRole('link').first()).toBeVisible();
    };
    // Where each link is in the navigation (which sticks while the page scrolls): a click aimed at one must not
    // land on its neighbour a moment later.
    const places = () =>
      nav.getByRole('link').evaluateAll((links) =>
        links.map((l) => {
          const box = l.getBoundingClientRect();
          return `${Math.round(box.top - l.closest('nav')!.getBoundingClientRect().top)}+${Math.round(box.height)}`;
        }),
      );
    await shown();
    await expect(nav.getByRole('link', { name: /^Directors and guarantors\s*0 of 1/ })).toBeVisible();
    const before = await places();

    await page.getByRole('button', { name: 'Add director' }).click();
    const director = page.getByRole('group', { name: 'Director 1' });
    await director.getByLabel('Full name').fill('Alex Morgan');
    await director.getByLabel('Email address').fill('alex.morgan@example.com');
    await director.getByLabel('Date of birth').fill('1979-08-14');
    await director.getByLabel('Shareholding').fill('60');
    await director.getByRole('radio', { name: 'No' }).check();
    await allSaved(page);
    // The count settles a moment after typing stops.
    await shown();
    await expect(nav.getByRole('link', { name: /^Directors and guarantors\s*complete/ })).toBeVisible();
    expect(await places()).toEqual(before);
    await expectAccessible(page, `a completed section in the navigation (${label})`);
    await expectNoSidewaysScroll(page, `a director was added (${label})`);
    expect(browserProblems).toEqual([]);
  });
}
