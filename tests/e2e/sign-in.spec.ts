import { DEMO_ACCOUNTS } from '../../server/auth/demo-users';
import { expect, test } from './support/fixtures';

const reviewer = DEMO_ACCOUNTS.find((a) => a.role === 'reviewer')!;

test.describe('signing in and out', () => {
  // Starts signed out, whatever the project's stored state.
  test.use({ storageState: { cookies: [], origins: [] } });

  test('a reviewer signs in with the keyboard, sees who is signed in, and signs out', async ({ page, browserProblems }) => {
    await page.goto('/sign-in');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();

    await page.getByLabel('Email address').fill(reviewer.email);
    await page.getByLabel('Password').fill(reviewer.password);
    await page.getByLabel('Password').press('Enter');

    await expect(page).toHaveURL(/\/$/);
    const account = page.getByRole('navigation', { name: 'Account' });
    await expect(account).toContainText('Riley Reviewer');
    await expect(page.getByText('You are signed in as a reviewer.')).toBeVisible();

    await account.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
    expect(browserProblems).toEqual([]);
  });

  test('a wrong password is refused with a message announced to screen readers', async ({ page }) => {
    await page.goto('/sign-in');
    await page.getByLabel('Email address').fill(reviewer.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'not right' })).toHaveText('The email or password is not right.');
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  test('empty fields are explained next to each field before anything is sent', async ({ page }) => {
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Enter your email address')).toBeVisible();
    await expect(page.getByText('Enter your password')).toBeVisible();
  });
});

test('staff stay signed in across pages (the stored session)', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Account' })).toContainText('Sam Staff');
  await page.goto('/sign-in');
  await expect(page).toHaveURL(/\/$/);
});
