import type { FullConfig } from '@playwright/test';
import { startStack, type StartedStack, type Stop } from './app-stack';
import { BASE_URL_ENV, SANDBOX_ORIGIN_ENV, STRICT_BASE_URL_ENV } from './paths';


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
    // Two stacks side by side: the app against the full sandbox (DESIGN.md's completions) for every spec, and
    // another app against a strict one (only what the spec guarantees) for the `strict` project's journeys.
    // Both are let finish starting (or fail) before a failure tears down what started, so nothing is left running.
    const started = await Promise.allSettled([startStack('full', stops), startStack('strict', stops)]);
    const [full, strict] = started.map((r) => {
      if (r.status === 'rejected') throw r.reason;
      return r.value;
    }) as [StartedStack, StartedStack];
    process.env[SANDBOX_ORIGIN_ENV] = full.sandboxOrigin;
    process.env[BASE_URL_ENV] = full.appUrl;
    process.env[STRICT_BASE_URL_ENV] = strict.appUrl;
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
