import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { newWebhookSecret } from '../../../server/webhooks/verify';
import { DEMO_KEYS } from '../../../server/sandbox/keys';
import { startSandbox } from '../../../server/sandbox/server';
import { startNextServer } from './next-server';
import { BASE_URL_ENV, REPO_ROOT, SANDBOX_ORIGIN_ENV } from './paths';
import { E2E_HOST } from './ports';

type Stop = () => Promise<void>;

/**
 * Starts every server the browser tests talk to, on free loopback ports chosen now, and hands
 * their URLs to the workers through process.env (workers are started after this and inherit it).
 * Returns the teardown, which stops them in reverse order of start.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const stops: Stop[] = [];
  const teardown = async () => {
    const errors: unknown[] = [];
    for (const stop of stops.reverse()) {
      try {
        await stop();
      } catch (error) {
        errors.push(error);
      }
    }
    stops.length = 0;
    if (errors.length > 0) throw new AggregateError(errors, 'stopping the e2e servers failed');
  };

  try {
    // Environment of the Next.js app, on top of the minimal base startNextServer gives it.
    const appEnv: Record<string, string> = {};

    // The Portal sandbox, in this process, on its own free port; the app talks to it as its Portal.
    // Its webhooks, signed with a secret the app shares, go to the app's receiver once the app is up.
    const webhookSecret = newWebhookSecret();
    const sandbox = await startSandbox({ host: E2E_HOST, port: 0, rateLimit: null, controls: true, webhookSecret });
    stops.push(() => sandbox.close());
    appEnv.WEBHOOK_SECRET = webhookSecret;
    appEnv.PORTAL_BASE_URL = sandbox.baseUrl;
    appEnv.PORTAL_API_KEY = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;
    process.env[SANDBOX_ORIGIN_ENV] = sandbox.origin;

    // The app's own database in a fresh directory, with the demo accounts the specs sign in with.
    const dataDir = mkdtempSync(join(tmpdir(), 'intake-e2e-'));
    stops.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    appEnv.DATA_DIR = dataDir;
    const seeded = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'server', 'cli', 'users.ts'), 'seed-demo'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    if (seeded.status !== 0) throw new Error(`seeding the demo accounts failed:\n${seeded.stdout}\n${seeded.stderr}`);

    const app = await startNextServer({ env: appEnv });
    stops.push(app.stop);
    sandbox.webhooks.retarget(`${app.url}/api/webhooks/portal`);
    process.env[BASE_URL_ENV] = app.url;
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
