import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { newWebhookSecret } from '../../../server/webhooks/verify';
import { DEMO_KEYS } from '../../../server/sandbox/keys';
import { startSandbox } from '../../../server/sandbox/server';
import type { SandboxProfile } from '../../../server/sandbox/options';
import { startSmtpSink } from '../../support/smtp-sink';
import { startNextServer } from './next-server';
import { BASE_URL_ENV, REPO_ROOT, SANDBOX_ORIGIN_ENV, STRICT_BASE_URL_ENV } from './paths';
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

/**
 * A Portal sandbox of the profile, in this process on its own free port, and an app talking to it as its Portal
 * with its own database (the demo accounts seeded); the sandbox's webhooks, signed with a secret the app shares,
 * go to the app's receiver once the app is up.
 */
interface StartedStack {
  appUrl: string;
  sandboxOrigin: string;
}

async function startStack(profile: SandboxProfile, stops: Stop[]): Promise<StartedStack> {
  const webhookSecret = newWebhookSecret();
  const sandbox = await startSandbox({ host: E2E_HOST, port: 0, rateLimit: null, controls: true, webhookSecret, profile });
  stops.push(() => sandbox.close());
  const dataDir = mkdtempSync(join(tmpdir(), `intake-e2e-${profile}-`));
  stops.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const seeded = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'server', 'cli', 'users.ts'), 'seed-demo'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  if (seeded.status !== 0) throw new Error(`seeding the demo accounts failed:\n${seeded.stdout}\n${seeded.stderr}`);
  // Mail goes to a real SMTP server of the test's own, as `npm start`'s goes to its local one.
  const smtp = await startSmtpSink();
  stops.push(() => smtp.close());
  const app = await startNextServer({
    env: {
      SMTP_URL: smtp.url,
      MAIL_RETRY_SECONDS: '1',
      // The sign-ins of the setup projects serve the whole run, which now lasts longer than the default 30 idle
      // minutes: the strict project's journeys, run last, met "Sign in to continue".
      SESSION_IDLE_MINUTES: '720',
      WEBHOOK_SECRET: webhookSecret,
      PORTAL_BASE_URL: sandbox.baseUrl,
      PORTAL_API_KEY: DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token,
      DATA_DIR: dataDir,
    },
  });
  stops.push(app.stop);
  sandbox.webhooks.retarget(`${app.url}/api/webhooks/portal`);
  return { appUrl: app.url, sandboxOrigin: sandbox.origin };
}
