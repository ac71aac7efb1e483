import os from 'node:os';
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/e2e/support/chromium';
import type { E2EOptions } from './tests/e2e/support/fixtures';
import { STORAGE_STATE, STRICT_BASE_URL_ENV, STRICT_STORAGE_STATE } from './tests/e2e/support/paths';

/**
 * Browser tests against the production build (`npm run test:e2e` = `next build && playwright test`).
 * The global setup starts the app (and later the Portal sandbox) on free 127.0.0.1 ports and stops
 * them at the end; specs import { test, expect } from tests/e2e/support/fixtures, whose `baseURL`
 * points at the app.
 */
export default defineConfig<E2EOptions>({
  testDir: './tests/e2e',
  outputDir: './test-results',
  globalSetup: './tests/e2e/support/global-setup.ts',
  forbidOnly: !!process.env.CI,
  // No retries: a flaky test must show up as a failure, not be retried into a pass.
  retries: 0,
  workers: Math.max(1, Math.min(2, os.availableParallelism())),
  fullyParallel: true,
  // Every journey runs axe in several states, against two apps and two sandboxes on two cores.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  // The whole browser suite takes about half an hour on two cores; a run that hangs still ends.
  globalTimeout: process.env.CI ? 60 * 60_000 : undefined,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    // Traces of failed tests are kept (retries are off, so 'on-first-retry' would never record).
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    launchOptions: chromiumLaunchOptions(),
  },
  projects: [
    {
      name: 'setup',
      testMatch: 'setup/*.setup.ts',
    },
    {
      name: 'chromium',
      testMatch: '**/*.spec.ts',
      testIgnore: 'strict/**',
      dependencies: ['setup'],
      use: { ...devices['Desktop Chrome'], storageState: STORAGE_STATE },
    },
    // The main journeys again, against an app whose Portal is the strict sandbox (only what the spec guarantees).
    {
      name: 'strict-setup',
      testMatch: 'strict/*.setup.ts',
      use: { appUrlEnv: STRICT_BASE_URL_ENV },
    },
    {
      name: 'strict',
      testMatch: 'strict/*.spec.ts',
      dependencies: ['strict-setup'],
      use: { ...devices['Desktop Chrome'], storageState: STRICT_STORAGE_STATE, appUrlEnv: STRICT_BASE_URL_ENV },
    },
  ],
});
