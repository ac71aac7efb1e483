// The whole stack for the BFF's integration tests, started once per Vitest run: the Portal sandbox (in
// this process, with a sentinel API key), a schema of the test PostgreSQL for the BFF's database, and
// the production Next server (`next start`) pointed at both. Test files reach it through inject('bff').
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newWebhookSecret } from '@/server/webhooks/verify';
import { buildIfStale } from '@/server/launcher/build';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { startSandbox } from '@/server/sandbox/server';
import { startNextServer } from '../e2e/support/next-server';
import { adminQuery, withSearchPath } from './pg-admin';
import { sentinelKey } from './sentinel-key';

/** A key nothing else uses, so a leak of it anywhere is unmistakable. */
export const SENTINEL_API_KEY = 'pk_test_SENTINEL_k3y_7f2e9c4b1a8d6e5f';
export const SENTINEL_SESSION_SECRET = 'sentinel-session-secret-0123456789abcdef';

export interface ProvidedBff {
  url: string;
  sandboxOrigin: string;
  sandboxBaseUrl: string;
  databaseUrl: string;
  logFile: string;
  /** The secret the sandbox signs its webhooks with and the app verifies them with. */
  webhookSecret: string;
  /** The app's whole environment, so a test can start a second instance beside it. */
  appEnv: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    bff: ProvidedBff | { error: string };
  }
}

export async function startBffStack(postgresUrl: string) {
  const stops: Array<() => Promise<void> | void> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    buildIfStale();
    // Its webhooks go to the app's receiver once the app's address is known (retarget below).
    const webhookSecret = newWebhookSecret();
    const sandbox = await startSandbox({ port: 0, rateLimit: null, controls: true, keys: [...DEMO_KEYS, sentinelKey(SENTINEL_API_KEY, 'Sentinel key of the BFF tests')], webhookSecret });
    stops.push(() => sandbox.close());

    const schema = `bff_${process.pid}`;
    await adminQuery(postgresUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    const databaseUrl = withSearchPath(postgresUrl, schema);
    stops.push(() => adminQuery(postgresUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`));

    const logFile = join(mkdtempSync(join(tmpdir(), 'bff-it-')), 'next.log');
    const appEnv = {
      PORTAL_BASE_URL: sandbox.baseUrl,
      PORTAL_API_KEY: SENTINEL_API_KEY,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: SENTINEL_SESSION_SECRET,
      LOG_LEVEL: 'debug',
      PORTAL_TIMEOUT_MS: '5000',
      WEBHOOK_SECRET: webhookSecret,
      // The workspace reconciles on demand only here: no pass at start or on a clock, so a test that needs one asks.
      WORKSPACE_RECONCILE_MINUTES: '0',
      // As if behind one proxy: a test names its client in X-Forwarded-For, so its sign-in failures slow nobody else's.
      TRUSTED_PROXY_HOPS: '1',
    };
    const app = await startNextServer({ logFile, env: appEnv });
    stops.push(() => app.stop());
    sandbox.webhooks.retarget(`${app.url}/api/webhooks/portal`);
    const provided: ProvidedBff = {
      url: app.url,
      sandboxOrigin: sandbox.origin,
      sandboxBaseUrl: sandbox.baseUrl,
      databaseUrl,
      logFile,
      webhookSecret,
      appEnv,
    };
    return { provided, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
