import { expect, type Page } from '@playwright/test';

/** The narrowest phone the pages are made for (DESIGN: every page usable at 360 px wide). */
export const PHONE = { width: 360, height: 740 } as const;

/** No sideways scrolling: the document is no wider than the window. */
export async function expectNoSidewaysScroll(page: Page, state: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `wider than the window (${innerWidth} px) when ${state}`).toBeLessThanOrEqual(innerWidth);
}

/** Every status line that says "Loading …" is gone: what the page reads in the browser has arrived. */
export async function expectLoaded(page: Page) {
  await expect(page.locator('.loading')).toHaveCount(0);
}
