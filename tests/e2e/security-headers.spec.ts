import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';

/*
 * In a real browser: the nonce-based Content-Security-Policy lets the app's own scripts run
 * and nothing else, and no other site can frame the app.
 */

test.use({ storageState: { cookies: [], origins: [] } });

const cspViolations = (problems: Array<{ text: string }>) => problems.filter((p) => /Content Security Policy|Refused to/i.test(p.text));

test('the app’s own scripts run under the policy without a single violation', async ({ page, browserProblems }) => {
  const reply = await page.goto('/sign-in');
  expect(reply?.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  // Client-side validation answers: React hydrated, so its scripts ran with the nonce.
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Enter your email address')).toBeVisible();
  await expectAccessible(page, 'sign-in with a validation message');
  expect(browserProblems).toEqual([]);
});

test('markup injected into the page cannot run script', async ({ page, browserProblems }) => {
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  // What a stored cross-site scripting flaw would put into the page: an inline handler on a broken image.
  await page.evaluate(() => {
    const div = document.createElement('div');
    div.innerHTML = '<img alt="" src="data:," onerror="window.__injected = true">';
    document.body.append(div);
  });
  await expect.poll(() => cspViolations(browserProblems).length).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected ?? false)).toBe(false);
});

test('another site cannot frame the app', async ({ page, baseURL, browserProblems }) => {
  // An attacker's page (about:blank here) puts the app in a frame: the browser refuses to show it.
  await page.setContent(`<!doctype html><html lang="en"><title>Elsewhere</title><iframe title="app" src="${baseURL}/sign-in"></iframe></html>`);
  const frame = page.frameLocator('iframe[title="app"]');
  await expect.poll(() => cspViolations(browserProblems).length).toBeGreaterThan(0);
  await expect(frame.getByRole('heading', { name: 'Sign in' })).toHaveCount(0);
});
