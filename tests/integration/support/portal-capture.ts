import { inspect } from 'node:util';
import { resetEnvForTests } from '@/server/env';
import { setLogSink } from '@/server/log';
import { PortalError } from '@/server/portal';

/**
 * For Portal client tests: every log line and every thrown error is kept, so a test can assert the
 * sentinel key appears in none of them; `configure` points the client at a base URL with that key.
 */
export function portalCapture(sentinelKey: string, sessionSecret: string) {
  const lines: string[] = [];
  const errors: unknown[] = [];
  let restore: () => void = () => {};
  return {
    lines,
    errors,
    listen() {
      restore = setLogSink((l) => lines.push(l));
    },
    stop() {
      restore();
    },
    configure: (baseUrl: string) =>
      resetEnvForTests({ PORTAL_BASE_URL: baseUrl, PORTAL_API_KEY: sentinelKey, SESSION_SECRET: sessionSecret, LOG_LEVEL: 'debug' }),
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
