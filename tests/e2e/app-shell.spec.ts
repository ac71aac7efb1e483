import { expect, test } from './support/fixtures';

test.describe('app shell', () => {
  test('renders the home page with its title, heading and language', async ({ page, browserProblems }) => {
    await page.goto('/');

    await expect(page).toHaveTitle('Intake');
    await expect(page.getByRole('heading', { level: 1, name: 'Client intake' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/);
    await expect(page.getByRole('main')).toBeVisible();

    expect(browserProblems).toEqual([]);
  });

  test('the skip link moves keyboard focus to the main content', async ({ page, browserProblems }) => {
    await page.goto('/');
    const skipLink = page.getByRole('link', { name: 'Skip to content' });
    const main = page.getByRole('main');

    // The skip link is the first thing a keyboard user reaches, and it shows itself when focused.
    await page.keyboard.press('Tab');
    await expect(skipLink).toBeFocused();
    await expect(skipLink).toBeInViewport();

    await page.keyboard.press('Enter');
    await expect(main).toBeFocused();
    await expect(page).toHaveURL(/#main$/);

    expect(browserProblems).toEqual([]);
  });
});
