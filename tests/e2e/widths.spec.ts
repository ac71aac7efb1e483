import type { Locator, Page } from '@playwright/test';
import { DEMO_ACCOUNTS } from '../../server/auth/demo-users';
import { createBusiness, inviteClient } from './support/applications';
import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectFitsWidth, WIDTHS } from './support/layout';
import { expectLoaded } from './support/phone';

/**
 * Every page, as each role meets it, at a phone's, a tablet's and two laptop widths: nothing scrolls
 * sideways, no word is broken between two letters (a table squeezed until "Open application" wraps a letter
 * per line), and axe finds nothing serious.
 */

const reviewer = DEMO_ACCOUNTS.find((a) => a.role === 'reviewer')!;
const signedOut = { cookies: [], origins: [] };
const APPLICATION = 'ciappl_harbourcafe';

/** A page and what shows it is all there. */
interface Visit {
  path: string;
  ready: (page: Page) => Locator;
}

const h1 = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name });
const formReady = (page: Page) => page.locator('form[data-form-ready="true"]');

async function visitAll(page: Page, visits: readonly Visit[], who: string, width: number) {
  for (const { path, ready } of visits) {
    await page.goto(path);
    await expect(ready(page), `${path} as ${who}`).toBeVisible({ timeout: 20_000 });
    await expectLoaded(page);
    await expectFitsWidth(page, `${path} is shown to ${who} at ${width} px`);
    await expectAccessible(page, `${path} is shown to ${who} at ${width} px`);
  }
}

for (const width of WIDTHS) {
  const viewport = { width, height: width < 600 ? 740 : 900 };

  test.describe(`at ${width} px`, () => {
    test.use({ viewport });
    // Several pages with axe each: slow on a busy machine.
    test.describe.configure({ timeout: 240_000 });

    test('signed out: home, sign-in and a refused invitation', async ({ openContext }) => {
      const context = await openContext({ storageState: signedOut, viewport });
      const page = await context.newPage();
      await visitAll(
        page,
        [
          { path: '/', ready: h1('Client intake') },
          { path: '/sign-in', ready: h1('Sign in') },
          { path: '/invite/invalid?reason=expired', ready: h1(/./) },
        ],
        'someone signed out',
        width,
      );
    });

    test('staff: every page', async ({ page, browserProblems }) => {
      test.setTimeout(480_000);
      await visitAll(
        page,
        [
          { path: '/', ready: h1('Client intake') },
          { path: '/businesses', ready: h1('Businesses') },
          { path: '/businesses/new', ready: h1('Create a business') },
          { path: '/businesses/board', ready: h1(/^Pipeline board/) },
          { path: '/businesses/biz_harbourcafe', ready: h1('Harbour Street Café') },
          { path: '/businesses/biz_meridian', ready: h1(/^Meridian/) },
          { path: '/projects/proj_meridiancnc', ready: formReady },
          { path: '/deals', ready: h1('Deals') },
          { path: '/deals?business_id=biz_pinecrest', ready: h1(/^Deals of /) },
          { path: '/deals/new', ready: h1('Create a deal') },
          { path: '/deals/deal_bluewaverevolver', ready: h1('Bluewave Fitness – revolving credit') },
          { path: '/deal-applications/dapp_meridiancnc', ready: formReady },
          { path: `/applications/${APPLICATION}`, ready: formReady },
          { path: `/applications/${APPLICATION}/autofill`, ready: h1('Autofill') },
          { path: `/applications/${APPLICATION}/review`, ready: h1('Review Autofill suggestions') },
          { path: `/applications/${APPLICATION}/timeline`, ready: h1('Timeline') },
        ],
        'staff',
        width,
      );
      expect(browserProblems).toEqual([]);
    });

    test('a reviewer: home, an application and its review', async ({ openContext, baseURL }) => {
      const context = await openContext({ storageState: signedOut, viewport });
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
        width,
      );
    });

    test('an invited client: the welcome, home, the form and Autofill', async ({ page, openContext, baseURL }) => {
      const { applicationId } = await createBusiness(page.request, baseURL!, `E2E Width ${width} Client Ltd`);
      const link = await inviteClient(page.request, baseURL!, applicationId);
      const context = await openContext({ storageState: signedOut, viewport });
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
        width,
      );
    });
  });
}
