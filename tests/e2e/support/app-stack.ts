import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newWebhookSecret } from '../../../server/webhooks/verify';
import { DEMO_KEYS } from '../../../server/sandbox/keys';
import { startSandbox } from '../../../server/sandbox/server';
import type { SandboxProfile } from '../../../server/sandbox/options';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { startNextServer } from './next-server';
import { REPO_ROOT } from './paths';
import { E2E_HOST } from './ports';

export type Stop = () => Promise<void>;

export interface StartedStack {
  appUrl: string;
  sandboxOrigin: string;
  /** The SMTP server the app sends to, in this process: what it took, parsed. */
  smtp: SmtpSink;
}

/**
 * A Portal sandbox of the profile, in this process on its own free port, and an app talking to it as its Portal
 * with its own database (the demo accounts seeded); the sandbox's webhooks, signed with a secret the app shares,
 * go to the app's receiver once the app is up. `env` adds settings (a spec whose app runs reminder time faster).
 * Each thing started pushes its stop onto `stops`, so a failure part-way stops what did start.
 */
export async function startStack(profile: SandboxProfile, stops: Stop[], env: Record<string, string> = {}): Promise<StartedStack> {
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
      ...env,
    },
  });
  stops.push(app.stop);
  sandbox.webhooks.retarget(`${app.url}/api/webhooks/portal`);
  return { appUrl: app.url, sandboxOrigin: sandbox.origin, smtp };
}
