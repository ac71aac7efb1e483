import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS } from '../../server/auth/demo-users';
import { createBusiness, inviteClient, openInvitationFirstTime } from './support/applications';
import { expectAccessible } from './support/axe';
import { expect, test, type BrowserProblem } from './support/fixtures';
import { expectNoSidewaysScroll, PHONE } from './support/phone';

/**
 * The page guard as people meet it: signed out, the sign-in page and then the page asked for; a reviewer on
 * a staff page, sent home; a client on another application, and anyone on a malformed id, not found.
 */

const staff = DEMO_ACCOUNTS.find((a) => a.role === 'staff')!;
const reviewer = DEMO_ACCOUNTS.find((a) => a.role === 'reviewer')!;
const signedOut = { cookies: [], origins: [] };
const SEEDED_APPLICATION = 'ciappl_harbourcafe';

async function signInWithTheForm(page: Page, account: { email: string; password: string }) {
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email address').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByLabel('Password').press('Enter');
}

/** Signs the page's browser context in through the API (the cookie is shared with the page). */
async function signInQuietly(page: Page, baseURL: string, account: { email: string; password: string }) {
  const r = await page.request.post('/api/auth/sign-in', { headers: { 'X-CSRF': '1', Origin: baseURL }, data: { email: account.email, password: account.password } });
  expect(r.status(), await r.text()).toBe(200);
}

/** Where the sign-in page will send the person afterwards. */
const nextOf = (page: Page) => new URL(page.url()).searchParams.get('next');

async function expectNotFound(page: Page, path: string) {
  const response = await page.goto(path);
  // Decided before anything is sent: the browser is told 404, and shown the app's own page.
  expect(response?.status(), path).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'This page was not found' }), path).toBeVisible();
  expect(new URL(page.url()).pathname + new URL(page.url()).search, `${path} is not redirected`).toBe(path);
}

/** The browser's own report of a page answered 404 is the point of these visits; anything else is a problem. */
const besides404s = (problems: BrowserProblem[]) =>
  problems.filter((p) => !(p.kind === 'console.error' && /status of 404 \(Not Found\)/.test(p.text)));

/** Console errors and uncaught errors of a page of another context (the fixture watches the test's own page). */
function watchProblems(page: Page) {
  const problems: BrowserProblem[] = [];
  page.on('console', (m) => void (m.type() === 'error' && problems.push({ kind: 'console.error', text: m.text() })));
  page.on('pageerror', (e) => void problems.push({ kind: 'pageerror', text: e.message }));
  return problems;
}

test.describe('signed out', () => {
  test.use({ storageState: signedOut });

  test('a staff page with a query: sign in, then on the page asked for, query and all', async ({ page, browserProblems }) => {
    const asked = '/deals?business_id=biz_harbourcafe';
    await page.goto(asked);
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    expect(nextOf(page)).toBe(asked);
    await expectAccessible(page, 'a guarded page sent the person to sign in');

    await signInWithTheForm(page, staff);
    await expect(page).toHaveURL((url) => url.pathname + url.search === asked);
    await expect(page.getByRole('heading', { level: 1, name: 'Deals of Harbour Street Café' })).toBeVisible();
    await expectAccessible(page, 'signed in, on the page asked for');
    expect(browserProblems).toEqual([]);
  });

  test.describe('at 360 px', () => {
    test.use({ viewport: PHONE });

    test('a reviewer asks for an application, signs in and reads it', async ({ page, browserProblems }) => {
      const asked = `/applications/${SEEDED_APPLICATION}`;
      await page.goto(asked);
      await expect(page).toHaveURL(/\/sign-in\?next=/);
      expect(nextOf(page)).toBe(asked);
      await expectAccessible(page, 'the sign-in page at 360 px');
      await expectNoSidewaysScroll(page, 'the sign-in page is shown');

      await signInWithTheForm(page, reviewer);
      await expect(page).toHaveURL((url) => url.pathname === asked);
      await expect(page.locator('form[data-form-ready="true"]')).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Autofill' }).getByRole('link', { name: 'Review suggestions' })).toBeVisible();
      await expectAccessible(page, 'the application at 360 px');
      await expectNoSidewaysScroll(page, 'the application is shown');
      expect(browserProblems).toEqual([]);
    });
  });
});

test.describe('a reviewer', () => {
  test.use({ storageState: signedOut });

  test('opening a staff page is sent home', async ({ page, baseURL, browserProblems }) => {
    await signInQuietly(page, baseURL!, reviewer);
    for (const path of ['/businesses', '/businesses/new', '/businesses/biz_harbourcafe', '/deals', '/deals/new', '/deals/deal_nosuchdeal', '/deal-applications/dapp_nosuchapp']) {
      await page.goto(path);
      await expect(page, path).toHaveURL((url) => url.pathname === '/');
      await expect(page.getByText('You are signed in as a reviewer.'), path).toBeVisible();
    }
    await expectAccessible(page, 'a reviewer was sent home from a staff page');

    // The review queue is theirs: they stay.
    await page.goto(`/applications/${SEEDED_APPLICATION}/review`);
    await expect(page).toHaveURL((url) => url.pathname === `/applications/${SEEDED_APPLICATION}/review`);
    expect(browserProblems).toEqual([]);
  });
});

test('an invited client reaches its own application only: another one is not found', async ({ page, openContext, baseURL }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Guarded Client Ltd');
  const link = await inviteClient(page.request, baseURL!, applicationId);

  const context = await openContext({ storageState: signedOut });
  const client = await context.newPage();
  const problems = watchProblems(client);
  await openInvitationFirstTime(client, link);
  await expect(client).toHaveURL((url) => url.pathname === `/applications/${applicationId}`);
  await expect(client.locator('form[data-form-ready="true"]')).toBeVisible();

  for (const path of [`/applications/${SEEDED_APPLICATION}`, `/applications/${SEEDED_APPLICATION}/autofill`, `/applications/${SEEDED_APPLICATION}/review`]) {
    await expectNotFound(client, path);
  }
  await expectAccessible(client, 'a client opened another application');
  // Its own is still there, and a staff page sends it home.
  await client.goto('/businesses');
  await expect(client).toHaveURL((url) => url.pathname === '/');
  await expect(client.getByRole('link', { name: 'Continue your application' })).toHaveAttribute('href', `/applications/${applicationId}`);
  expect(besides404s(problems)).toEqual([]);
});

test('a malformed id is not found, whoever asks', async ({ page, browserProblems }) => {
  for (const path of [
    '/applications/not-an-application',
    '/applications/ciappl_UPPER/autofill',
    '/applications/ciappl_x!/review',
    '/businesses/biz_',
    '/deals/not-a-deal',
    '/deal-applications/deal_harbourcafe',
    '/deals?business_id=harbourcafe',
  ]) {
    await expectNotFound(page, path);
  }
  await expectAccessible(page, 'a malformed id was not found');
  expect(besides404s(browserProblems)).toEqual([]);
});
