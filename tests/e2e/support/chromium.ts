import fs from 'node:fs';
import { chromium, type LaunchOptions } from '@playwright/test';

/** The system Chromium of Debian/Ubuntu (`apt-get install chromium`). */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** Flags for a headless Chromium in a container or CI box: no GPU, no sandbox, no phoning home. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/**
 * Which Chromium to launch, in order:
 * 1. $PLAYWRIGHT_CHROMIUM_PATH or $CHROMIUM_PATH when set (an explicit choice wins);
 * 2. the browser installed by `npx playwright install chromium`, when present (Playwright's default);
 * 3. /usr/bin/chromium, when present;
 * 4. otherwise Playwright's default, which fails with its own "run npx playwright install" hint.
 */
function chromiumExecutablePath(): string | undefined {
  const explicit = process.env.PLAYWRIGHT_CHROMIUM_PATH || process.env.CHROMIUM_PATH;
  if (explicit) {
    if (!fs.existsSync(explicit)) throw new Error(`Chromium not found at ${explicit} (from $PLAYWRIGHT_CHROMIUM_PATH / $CHROMIUM_PATH)`);
    return explicit;
  }
  if (playwrightChromiumInstalled()) return undefined;
  if (fs.existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  return undefined;
}

function playwrightChromiumInstalled(): boolean {
  try {
    const bundled = chromium.executablePath();
    return bundled !== '' && fs.existsSync(bundled);
  } catch {
    return false;
  }
}

export function chromiumLaunchOptions(): LaunchOptions {
  const executablePath = chromiumExecutablePath();
  return { args: CHROMIUM_ARGS, ...(executablePath ? { executablePath } : {}) };
}
