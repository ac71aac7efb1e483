import { test as base, expect, type ConsoleMessage } from '@playwright/test';
import { BASE_URL_ENV } from './paths';

export interface BrowserProblem {
  kind: 'console.error' | 'pageerror';
  text: string;
  /** Where the console message came from, when the browser says. */
  location?: string;
}

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
