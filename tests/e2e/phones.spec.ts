import type { Locator, Page } from '@playwright/test';
import { DEMO_ACCOUNTS } from '../../server/auth/demo-users';
import { createBusiness, inviteClient } from './support/applications';
import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectLoaded, expectNoSidewaysScroll, PHONE } from './support/phone';

/**
 * Every page on a 360 px phone, as each role meets it: nothing scrolls sideways and axe finds nothing
 * serious. Then the form's phone layout: the section navigation is a menu, and the save status stays in
 * view while the person scrolls.
 */

const reviewer = DEMO_ACCOUNTS.find((a) => a.role === 'reviewer')!;
const signedOut = { cookies: [], origins: [] };
const APPLICATION = 'ciappl_harbourcafe';

test.use({ viewport: PHONE });

/** A page and what shows it is all there. */
interface Visit {
  path: string;
  ready: (page: Page) => Locator;
}

const h1 = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name });
const formReady = (page: Page) => page.locator('form[data-form-ready="true"]');

async function visitAll(page: Page, visits: readonly Visit[], who: string) {
  for (const { path, ready } of visits) {
    await page.goto(path);
    await expect(ready(page), `${path} as ${who}`).toBeVisible();
    await expectLoaded(page);
    await expectNoSidewaysScroll(page, `${path} is shown to ${who}`);
    await expectAccessible(page, `${path} is shown to ${who} at 360 px`);
  }
}

test('signed out: home, sign-in and a refused invitation', async ({ openContext }) => {
  const context = await openContext({ storageState: signedOut, viewport: PHONE });
  const page = await context.newPage();
  await visitAll(
    page,
    [
      { path: '/', ready: h1('Client intake') },
      { path: '/sign-in', ready: h1('Sign in') },
      { path: '/invite/invalid?reason=expired', ready: h1(/./) },
    ],
    'someone signed out',
  );
});

test('staff: every page', async ({ page, browserProblems }) => {
  test.setTimeout(120_000);
  await visitAll(
    page,
    [
      { path: '/', ready: h1('Client intake') },
      { path: '/businesses', ready: h1('Businesses') },
      { path: '/businesses/new', ready: h1('Create a business') },
      { path: '/businesses/board', ready: h1(/^Pipeline board/) },
      { path: '/businesses/biz_harbourcafe', ready: h1('Harbour Street Café') },
      { path: '/deals', ready: h1('Deals') },
      { path: '/deals?business_id=biz_pinecrest', ready: h1(/^Deals of /) },
      { path: '/deals/new', ready: h1('Create a deal') },
      { path: '/deals/deal_bluewaverevolver', ready: h1('Bluewave Fitness – revolving credit') },
      { path: '/deal-applications/dapp_meridiancnc', ready: formReady },
      { path: `/applications/${APPLICATION}`, ready: formReady },
      { path: `/applications/${APPLICATION}/autofill`, ready: h1('Autofill') },
      { path: `/applications/${APPLICATION}/review`, ready: h1('Review Autofill suggestions') },
    ],
    'staff',
  );
  expect(browserProblems).toEqual([]);
});

test('a reviewer: home, an application and its review', async ({ openContext, baseURL }) => {
  const context = await openContext({ storageState: signedOut, viewport: PHONE });
  const page = await context.newPage();
  const signIn = await page.request.post('/api/auth/sign-in', { headers: { 'X-CSRF': '1', Origin: baseURL! }, data: { email: reviewer.email, password: reviewer.password } });
  expect(signIn.status()).toBe(200);
  await visitAll(
    page,
    [
      { path: '/', ready: h1('Client intake') },
      { path: `/applications/${APPLICATION}`, ready: formReady },
      { path: `/applications/${APPLICATION}/review`, ready: h1('Review Autofill suggestions') },
    ],
    'a reviewer',
  );
});

test('an invited client: the welcome, home, the form and Autofill', async ({ page, openContext, baseURL }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Phone Client Ltd');
  const link = await inviteClient(page.request, baseURL!, applicationId);
  const context = await openContext({ storageState: signedOut, viewport: PHONE });
  const client = await context.newPage();
  await client.goto(link);
  await expect(client).toHaveURL((url) => url.pathname === `/applications/${applicationId}/welcome`);
  await visitAll(
    client,
    [
      { path: `/applications/${applicationId}/welcome`, ready: h1(/^Welcome/) },
      { path: '/', ready: h1('Client intake') },
      { path: `/applications/${applicationId}`, ready: formReady },
      { path: `/applications/${applicationId}/autofill`, ready: h1('Autofill') },
    ],
    'an invited client',
  );
});

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
