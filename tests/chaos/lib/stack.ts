// The stack the chaos runs drive: the Portal sandbox (in this process, with its test controls), app instances
// (`next start`, production build) sharing one PostgreSQL schema and session secret, and accounts to sign in with.
// Runs from a script (`node --conditions=react-server`, so server modules load) and from Vitest alike.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUser } from '@/server/auth';
import { createDb } from '@/server/db';
import { buildIfStale } from '@/server/launcher/build';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { startSandbox, type RunningSandbox } from '@/server/sandbox/server';
import type { Db } from '@/server/db/types';
import { newWebhookSecret } from '@/server/webhooks/verify';
import { startNextServer, type NextServer } from '../../e2e/support/next-server';
import { adminQuery, withSearchPath } from '../../support/pg-admin';
import { findPostgresBinDir, startPostgresCluster } from '../../support/postgres-cluster';
import { CHAOS_MAIL_FAULTS, startFaultySmtp, type FaultySmtp } from './mail';

export const PORTAL_KEY = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;

/** One app instance; restart() brings it back on the same port, as behind a load balancer. */
export class AppInstance {
  private server: NextServer | null = null;
  url = '';
  /** False while it is (re)starting: the balancer sends nobody there. */
  up = false;
  restarts = 0;

  constructor(
    readonly name: string,
    private readonly env: Record<string, string>,
    private readonly logFile: string,
  ) {}

  async start(port?: number) {
    this.server = await startNextServer({ env: this.env, logFile: this.logFile, port });
    this.url = this.server.url;
    this.up = true;
  }

  async restart() {
    this.up = false;
    await this.server?.stop();
    await this.start(Number(new URL(this.url).port));
    this.restarts += 1;
  }

  async stop() {
    this.up = false;
    await this.server?.stop();
  }
}

/** Round robin over the instances that are up: what a load balancer with health checks does. */
export class Balancer {
  private next = 0;
  constructor(readonly instances: AppInstance[]) {}
  pick(): AppInstance {
    const live = this.instances.filter((i) => i.up);
    const pool = live.length > 0 ? live : this.instances;
    return pool[this.next++ % pool.length]!;
  }
}

export interface ChaosStack {
  sandbox: RunningSandbox;
  instances: AppInstance[];
  balancer: Balancer;
  /** A new staff account; returns what signs it in. */
  newStaff(label: string): Promise<{ email: string; password: string }>;
  logDir: string;
  /** The app's database (the outbox is counted there). */
  db: Db;
  /** Where the instances send mail: an SMTP server with faults of its own. */
  smtp: FaultySmtp;
  stop(): Promise<void>;
}

/** PostgreSQL for the app: TEST_DATABASE_URL, else a throwaway cluster from the machine's binaries. */
async function postgresServer(): Promise<{ url: string; stop(): void }> {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop: () => undefined };
  const bin = findPostgresBinDir();
  if (!bin) throw new Error('No PostgreSQL: set TEST_DATABASE_URL or install initdb/pg_ctl');
  return startPostgresCluster(bin);
}

export async function startChaosStack(o: { instances: number; postgresUrl?: string; seed?: number }): Promise<ChaosStack> {
  const stops: Array<() => Promise<void> | void> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    buildIfStale();
    const pg = o.postgresUrl ? { url: o.postgresUrl, stop: () => undefined } : await postgresServer();
    stops.push(() => pg.stop());
    const schema = `chaos_${process.pid}_${randomBytes(3).toString('hex')}`;
    await adminQuery(pg.url, `CREATE SCHEMA ${schema}`);
    stops.push(() => adminQuery(pg.url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    const databaseUrl = withSearchPath(pg.url, schema);

    const webhookSecret = newWebhookSecret();
    const sandbox = await startSandbox({ port: 0, rateLimit: null, controls: true, webhookSecret });
    stops.push(() => sandbox.close());

    const db = await createDb({ url: databaseUrl });
    stops.push(() => db.close());

    const smtp = await startFaultySmtp(o.seed ?? 7, CHAOS_MAIL_FAULTS);
    smtp.setFaulty(false);
    stops.push(() => smtp.close());

    const logDir = mkdtempSync(join(tmpdir(), 'chaos-'));
    const env = {
      PORTAL_BASE_URL: sandbox.baseUrl,
      PORTAL_API_KEY: PORTAL_KEY,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      WEBHOOK_SECRET: webhookSecret,
      LOG_LEVEL: 'warn',
      SMTP_URL: smtp.url,
      // Temporary refusals are tried again after 1 s, then 2, 4…: a run's retries end within it.
      MAIL_RETRY_SECONDS: '1',
    };
    const instances = Array.from({ length: o.instances }, (_, n) => new AppInstance(`app-${n + 1}`, env, join(logDir, `app-${n + 1}.log`)));
    stops.push(async () => {
      for (const i of instances) await i.stop();
    });
    // One after the other: both would run the migrations at once otherwise.
    for (const i of instances) await i.start();
    sandbox.webhooks.retarget(`${instances[0]!.url}/api/webhooks/portal`);

    const newStaff = async (label: string) => {
      const email = `${label}-${randomBytes(4).toString('hex')}@example.test`;
      const password = `pw-${randomBytes(12).toString('hex')}`;
      await createUser(db, { email, name: `Chaos ${label}`, role: 'staff', password });
      return { email, password };
    };
    return { sandbox, instances, balancer: new Balancer(instances), newStaff, logDir, db, smtp, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
