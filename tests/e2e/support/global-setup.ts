import type { FullConfig } from '@playwright/test';
import { DEMO_KEYS } from '../../../server/sandbox/keys';
import { startSandbox } from '../../../server/sandbox/server';
import { startNextServer } from './next-server';
import { BASE_URL_ENV, SANDBOX_ORIGIN_ENV } from './paths';
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
    const sandbox = await startSandbox({ host: E2E_HOST, port: 0, rateLimit: null, controls: true });
    stops.push(() => sandbox.close());
    appEnv.PORTAL_BASE_URL = sandbox.baseUrl;
    appEnv.PORTAL_API_KEY = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;
    process.env[SANDBOX_ORIGIN_ENV] = sandbox.origin;

    const app = await startNextServer({ env: appEnv });
    stops.push(app.stop);
    process.env[BASE_URL_ENV] = app.url;
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
