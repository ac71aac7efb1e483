import type { Page } from '@playwright/test';
import { createBusiness } from './support/applications';
import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectNoSidewaysScroll, PHONE } from './support/phone';

/**
 * The form's phone layout: the section navigation is a menu, and the save status stays in view while the
 * person scrolls. (Every page at 360 px and wider: widths.spec.ts.)
 */

test.use({ viewport: PHONE });

const formReady = (page: Page) => page.locator('form[data-form-ready="true"]');

test('the form on a phone: sections in a menu, the save status in view while scrolling', async ({ page, baseURL, browserProblems }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Phone Form Ltd');
  await page.goto(`/applications/${applicationId}`);
  await expect(formReady(page)).toBeVisible();

  // The sections are behind one button that says where the person is.
  const sections = page.getByRole('navigation', { name: 'Sections' });
  const toggle = sections.getByRole('button', { name: /^Sections/ });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(sections.getByRole('list')).toBeHidden();
  await expectNoSidewaysScroll(page, 'the section menu is closed');
  await expectAccessible(page, 'the section menu is closed');

  // Open, then Escape: closed again, focus back on the button.
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const links = sections.getByRole('list').getByRole('link');
  await expect(links.first()).toBeVisible();
  await expectNoSidewaysScroll(page, 'the section menu is open');
  await expectAccessible(page, 'the section menu is open');
  await links.first().focus();
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();

  // By keyboard: open it, choose the second section; the menu closes and the section's heading has focus.
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const second = links.nth(1);
  const label = (await second.locator('.section-label').textContent())!;
  await second.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('heading', { level: 2, name: label })).toBeFocused();
  await expect(toggle).toContainText(label);

  // Scrolled to the end of the section, the save status is still on screen.
  const status = page.locator('.save-status');
  await expect(status).toBeInViewport();
  await page.getByRole('navigation', { name: 'Section pages' }).scrollIntoViewIfNeeded();
  await expect(page.getByRole('navigation', { name: 'Section pages' })).toBeInViewport();
  // The status line itself scrolled out of its place: only its stickiness keeps it on screen.
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(PHONE.height);
  await expect(status).toBeInViewport();
  await expectNoSidewaysScroll(page, 'scrolled to the end of a section');
  expect(browserProblems).toEqual([]);
});
