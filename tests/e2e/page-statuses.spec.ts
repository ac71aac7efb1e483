import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS } from '../../server/auth/demo-users';
import { createBusiness, inviteClient } from './support/applications';
import { expectAccessible } from './support/axe';
import { expect, test, type BrowserProblem } from './support/fixtures';
import { SANDBOX_ORIGIN_ENV } from './support/paths';
import { expectNoSidewaysScroll, PHONE } from './support/phone';

/*
 * What a person sees when a page cannot show what was asked, and what the browser is told: the app's own not-found page (404) with a way back, the app's error
 * page (500) whose "Try again" reads the page again once the Portal answers, a malformed address in the app's
 * look (400); and a signed-in person who opens an invitation link is asked before becoming the client.
 */

const staff = DEMO_ACCOUNTS.find((a) => a.role === 'staff')!;

const WIDTHS = [
  ['a phone', PHONE],
  ['a desktop', { width: 1280, height: 800 }],
] as const;

/** The browser's own reports of the statuses these pages answer with on purpose. */
const besidesStatus = (problems: BrowserProblem[], status: number) =>
  problems.filter((p) => !(p.kind === 'console.error' && p.text.includes(`status of ${status}`)));

async function sandboxFaults(body: Record<string, unknown> | null) {
  const origin = process.env[SANDBOX_ORIGIN_ENV];
  if (!origin) throw new Error(`${SANDBOX_ORIGIN_ENV} is not set`);
  const r = await fetch(`${origin}/_sandbox/faults`, {
    method: body ? 'PUT' : 'DELETE',
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(r.ok).toBe(true);
}

for (const [device, viewport] of WIDTHS) {
  test.describe(`on ${device}`, () => {
    test.use({ viewport });

    test('an unknown business or deal answers 404 with the app’s page and a way back', async ({ page, browserProblems }) => {
      test.slow();
      for (const path of ['/businesses/does-not-exist', '/deals/deal_nope', '/businesses/biz_nosuchbusiness0']) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(404);
        await expect(page.getByRole('heading', { level: 1, name: 'This page was not found' }), path).toBeVisible();
        await expect(page.getByRole('link', { name: 'Intake' }), path).toBeVisible();
      }
      await expectAccessible(page, 'a page was not found');
      await expectNoSidewaysScroll(page, 'a page was not found');
      const back = page.getByRole('navigation', { name: 'Ways back' });
      await back.getByRole('link', { name: 'Businesses' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Businesses' })).toBeVisible();
      expect(besidesStatus(browserProblems, 404)).toEqual([]);
    });

    test('a malformed address answers 400 with a page in the app’s look', async ({ page, browserProblems }) => {
      const response = await page.goto('/businesses/%ZZ');
      expect(response?.status()).toBe(400);
      await expect(page.getByRole('heading', { level: 1, name: 'This address is not valid' })).toBeVisible();
      // The app's header and type, not the browser's defaults.
      const header = page.getByRole('banner');
      await expect(header.getByRole('link', { name: 'Intake' })).toBeVisible();
      expect(await header.evaluate((e) => getComputedStyle(e).borderBottomStyle)).toBe('solid');
      expect(await page.locator('body').evaluate((e) => getComputedStyle(e).fontFamily)).toContain('system-ui');
      await expectAccessible(page, 'a malformed address');
      await expectNoSidewaysScroll(page, 'a malformed address');
      await page.getByRole('link', { name: 'Go to the home page' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Client intake' })).toBeVisible();
      expect(besidesStatus(browserProblems, 400)).toEqual([]);
    });
  });
}

test('a business the Portal cannot read answers 500 with the error page; “Try again” shows it once the Portal answers', async ({ page, baseURL, browserProblems }) => {
  // The Portal client retries the failed read within its time budget before the page gives up.
  test.slow();
  const { businessId } = await createBusiness(page.request, baseURL!, 'E2E Status Retry Ltd');
  await page.setViewportSize(PHONE);
  try {
    // Only this business's reads fail, so the tests beside this one are untouched.
    await sandboxFaults({ rate_5xx: 1, status_5xx: 503, paths: [`businesses/${businessId}/`], seed: 1 });
    const response = await page.goto(`/businesses/${businessId}`);
    expect(response?.status()).toBe(500);
    // A page whose render failed may carry no icon link, and the browser then asks for /favicon.ico itself.
    expect((await page.request.get('/favicon.ico')).headers()['content-type']).toBe('image/x-icon');
    const problem = page.getByRole('alert').filter({ hasText: 'The business could not be shown' });
    await expect(problem).toBeVisible({ timeout: 15_000 });
    await expectAccessible(page, 'the business could not be read');
    await expectNoSidewaysScroll(page, 'the business could not be read');
  } finally {
    await sandboxFaults(null);
  }
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'E2E Status Retry Ltd' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'could not be shown' })).toHaveCount(0);
  // React reports the server's error the page showed (#441: "An error occurred in the Server Components render",
  // its message withheld in production); that report and the 500 itself are the point, nothing else may appear.
  expect(besidesStatus(browserProblems, 500).filter((p) => !(p.kind === 'console.error' && p.text.includes('Minified React error #441')))).toEqual([]);
});

for (const [device, viewport] of WIDTHS) {
  test.describe(`a staff member signed in on ${device}`, () => {
    // A session of its own: continuing ends it, and the shared staff session of the other tests must live on.
    test.use({ storageState: { cookies: [], origins: [] }, viewport });

    test('who opens an invitation link is asked first', async ({ page, baseURL, browserProblems }) => {
      test.slow();
      const signIn = await page.request.post('/api/auth/sign-in', { headers: { 'X-CSRF': '1', Origin: baseURL! }, data: { email: staff.email, password: staff.password } });
      expect(signIn.status()).toBe(200);
      await invitedAndAsked(page, baseURL!, device, browserProblems);
    });
  });
}

/** Staff open an invitation link: asked first, staying keeps them staff, continuing makes them the client. */
async function invitedAndAsked(page: Page, baseURL: string, device: string, browserProblems: BrowserProblem[]) {
  const { applicationId } = await createBusiness(page.request, baseURL, `E2E Switch ${device === 'a phone' ? 'Phone' : 'Desk'} Ltd`);
  const link = await inviteClient(page.request, baseURL, applicationId);
  await page.goto(link);
  await expect(page).toHaveURL((url) => url.pathname.endsWith('/confirm'));
  await expect(page.getByRole('heading', { level: 1, name: 'Continue as the invited client?' })).toBeVisible();
  await expect(page.getByText(/You are signed in as .+\(staff\)\./)).toBeVisible();
  await expectAccessible(page, 'a signed-in person is asked before opening an invitation');
  await expectNoSidewaysScroll(page, 'the invitation asks first');

  // Staying: still staff.
  await page.getByRole('link', { name: /^Stay signed in as / }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Client intake' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Businesses' })).toBeVisible();

  // Continuing: the client's welcome, the staff session over.
  await page.goto(link);
  await page.getByRole('button', { name: 'Continue as the invited client' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === `/applications/${applicationId}/welcome`);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Your application' })).toBeVisible();
  await expectAccessible(page, 'the invited client, after confirming');
  expect(browserProblems).toEqual([]);
}
