import { expect, type Page } from '@playwright/test';
import type { OpenContext } from './fixtures';
import { expectFilled, type FilledField } from './form-filler';
import { STORAGE_STATE } from './paths';

/** The form has its contract and answers and takes input. */
export const formReady = (page: Page, options?: { timeout: number }) => expect(page.locator('form[data-form-ready="true"]')).toBeVisible(options);

/** The autosave status says every answer reached the Portal. */
export const allSaved = (page: Page) => expect(page.getByRole('status').filter({ hasText: 'All changes saved.' })).toBeVisible({ timeout: 15_000 });

/**
 * A second signed-in staff member (a browser context of their own) with the form at `path` open. With
 * `liveStream`, also once the page's live stream is open (the server subscribes before it answers); `viewport`
 * opens it on another screen size (a phone).
 */
export async function staffPage(
  openContext: OpenContext,
  path: string,
  { liveStream = false, viewport }: { liveStream?: boolean; viewport?: { width: number; height: number } } = {},
) {
  const context = await openContext({ storageState: STORAGE_STATE, ...(viewport ? { viewport } : {}) });
  const page = await context.newPage();
  const stream = liveStream ? page.waitForResponse((r) => r.url().includes('/api/events?') && r.status() === 200) : null;
  await page.goto(path);
  await formReady(page);
  await stream;
  return page;
}

/** After a reload the form shows every value that was filled in. */
export async function expectFilledAfterReload(page: Page, filled: readonly FilledField[]) {
  await page.reload();
  await formReady(page);
  await expectFilled(page, filled);
}

/** Submits the form: it shows the submission date, offers no submit any more and is read-only. */
export async function submitAndExpectReadOnly(page: Page) {
  await page.getByRole('button', { name: 'Submit application' }).click();
  await expect(page.getByText(/^Submitted on/)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Submit application' })).toHaveCount(0);
  await expect(page.locator('form.intake-form').locator('input, select, textarea').first()).toBeDisabled();
}
