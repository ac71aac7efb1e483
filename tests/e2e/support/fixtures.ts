import { test as base, expect, type BrowserContext, type BrowserContextOptions, type ConsoleMessage } from '@playwright/test';
import { BASE_URL_ENV } from './paths';

export interface BrowserProblem {
  kind: 'console.error' | 'pageerror';
  text: string;
  /** Where the console message came from, when the browser says. */
  location?: string;
}

/** Opens another browser context (another person, device or screen) on the app; see the `openContext` fixture. */
export type OpenContext = (options?: BrowserContextOptions) => Promise<BrowserContext>;

export interface E2EOptions {
  /** The environment variable naming the app a project's tests use (the global setup starts two). */
  appUrlEnv: string;
}

interface E2EFixtures {
  /**
   * Console errors and uncaught page errors of `page`, collected from the moment the fixture is
   * first used (use it before navigating). Opt-in: failed requests a test provokes on purpose
   * (4xx answers) are console errors in Chromium too.
   */
  browserProblems: BrowserProblem[];
  /**
   * Opens a browser context of its own (the app's baseURL unless given), for a second person, device or
   * screen size. Every context it opened is closed when the test ends, passed or failed, so a failing test
   * leaves no browser behind; closing one earlier in the test is still allowed.
   */
  openContext: OpenContext;
}

// The second argument of a fixture is called `provide` (Playwright's docs say `use`) so that the
// React hooks lint rule does not take it for React's use().
export const test = base.extend<E2EFixtures & E2EOptions>({
  appUrlEnv: [BASE_URL_ENV, { option: true }],
  // The app runs on a port chosen at run time by the global setup; workers find it in the env.
  baseURL: async ({ appUrlEnv }, provide) => {
    const url = process.env[appUrlEnv];
    if (!url) throw new Error(`${appUrlEnv} is not set: the e2e global setup (tests/e2e/support/global-setup.ts) did not run`);
    await provide(url);
  },

  openContext: async ({ browser, baseURL }, provide) => {
    const opened: BrowserContext[] = [];
    try {
      await provide(async (options = {}) => {
        const context = await browser.newContext({ baseURL, ...options });
        opened.push(context);
        return context;
      });
    } finally {
      await Promise.all(opened.map((c) => c.close()));
    }
  },

  browserProblems: async ({ page }, provide) => {
    const problems: BrowserProblem[] = [];
    const onConsole = (message: ConsoleMessage) => {
      if (message.type() !== 'error') return;
      const { url, lineNumber } = message.location();
      problems.push({ kind: 'console.error', text: message.text(), ...(url ? { location: `${url}:${lineNumber}` } : {}) });
    };
    const onPageError = (error: Error) => problems.push({ kind: 'pageerror', text: error.stack ?? error.message });
    page.on('console', onConsole);
    page.on('pageerror', onPageError);
    await provide(problems);
    page.off('console', onConsole);
    page.off('pageerror', onPageError);
  },
});

export { expect };
