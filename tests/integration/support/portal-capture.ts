import { inspect } from 'node:util';
import { resetEnvForTests } from '@/server/env';
import { setLogSink } from '@/server/log';
import { PortalError } from '@/server/portal';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { startSandbox, type RunningSandbox } from '@/server/sandbox/server';
import { sentinelKey } from '../../support/sentinel-key';

/**
 * For Portal client tests: every log line and every thrown error is kept, so a test can assert the
 * sentinel key appears in none of them; `configure` points the client at a base URL with that key.
 */
export function portalCapture(sentinelToken: string, sessionSecret: string) {
  const lines: string[] = [];
  const errors: unknown[] = [];
  let restore: () => void = () => {};
  let sandbox: RunningSandbox | undefined;
  return {
    lines,
    errors,
    /** Starts keeping log lines and a sandbox that also takes the sentinel key. */
    async start(keyLabel: string): Promise<RunningSandbox> {
      restore = setLogSink((l) => lines.push(l));
      sandbox = await startSandbox({ port: 0, rateLimit: null, keys: [...DEMO_KEYS, sentinelKey(sentinelToken, keyLabel)] });
      return sandbox;
    },
    /** Stops keeping log lines, forgets the environment and closes the sandbox. */
    async stop() {
      restore();
      resetEnvForTests();
      await sandbox?.close();
    },
    configure: (baseUrl: string) =>
      resetEnvForTests({ PORTAL_BASE_URL: baseUrl, PORTAL_API_KEY: sentinelToken, SESSION_SECRET: sessionSecret, LOG_LEVEL: 'debug' }),
    /** The PortalError a call fails with (kept for the leak checks); anything else fails the test. */
    async failure(p: Promise<unknown>): Promise<PortalError> {
      try {
        await p;
      } catch (e) {
        errors.push(e);
        if (e instanceof PortalError) return e;
        throw new Error(`expected a PortalError, got ${inspect(e)}`);
      }
      throw new Error('expected the call to fail');
    },
  };
}
