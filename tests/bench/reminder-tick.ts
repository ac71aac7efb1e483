// Benchmark of one reminder tick (DESIGN §8): BENCH_REMINDER_INVITATIONS invitations (10,000), each mailed and
// with a reminder step that has just come due, its job waiting in the queue. Timed: from the app's reminder
// worker starting until every step is claimed and its reminder queued (outbox row and delivery job, in one
// transaction per batch), with the default quiet hours checked for each step; nothing is sent (delivery is
// bench:mail's). On the embedded database, kept in a data directory on disk as `npm start` keeps it (in memory,
// as the tests keep it, it is slower: its in-memory files grow by copying), and on PostgreSQL. Baseline, in the
// same run and database: the one query that reads every due step with its invitation, inviter and business (what
// any tick must at least read). Target ≤ 2 s.
// Prints a table, then one JSON line with `met`.
//
//   BENCH_REMINDER_INVITATIONS (10000)
//   BENCH_DATABASES (embedded,postgres)
//   TEST_DATABASE_URL                     PostgreSQL server to use (a schema of its own) instead of a throwaway cluster
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDb } from '@/server/db';
import type { Db } from '@/server/db/types';
import { REMINDER_QUEUE, startJobQueue } from '@/server/messages/job-queue';
import { workReminders } from '@/server/reminders/reminders';
import { benchPostgres } from './lib/bench-postgres';

const invitations = Number(process.env.BENCH_REMINDER_INVITATIONS ?? 10_000);
const databases = (process.env.BENCH_DATABASES ?? 'embedded,postgres').split(',') as Array<'embedded' | 'postgres'>;
const TARGET_MS = 2_000;
const round = (n: number) => Math.round(n);

/**
 * A whole-hour zone where it is about midday now: the default quiet hours (21–8) are checked for every step, as
 * in the app, and none falls in them whenever the bench runs.
 */
function middayZone(now: Date): string {
  const ahead = 12 - now.getUTCHours();
  // Etc/GMT zones count the other way: Etc/GMT-3 is three hours ahead of UTC.
  return ahead >= 0 ? `Etc/GMT-${ahead}` : `Etc/GMT+${-ahead}`;
}
const QUIET = { start: 21, end: 8 };

/** Invitations as the app leaves them: a staff inviter, the invitation mailed (its link kept), a step due now. */
async function seed(db: Db, n: number, createdAt: Date, dueAt: Date, zone: string) {
  const expires = new Date(createdAt.getTime() + 30 * 86_400_000);
  await db.query(`INSERT INTO users (id, email, name, role, password_hash) VALUES ('usr_bench', 'bench-staff@example.test', 'Bench Staff', 'staff', 'x')`);
  await db.query(
    `INSERT INTO invitations (id, token_hash, application_id, business_id, client_email, client_name, created_by, created_at, expires_at, time_zone, reminder_days)
     SELECT 'inv_bench_' || g, 'hash_' || g, 'app_bench_' || g, 'biz_bench_' || g, 'client-' || g || '@example.test', 'Client ' || g, 'usr_bench', $1, $2, $4, '[1]'::jsonb
     FROM generate_series(1, $3::int) g`,
    [createdAt, expires, n, zone],
  );
  await db.query(
    `INSERT INTO workspace_businesses (id, name, application_id, progress_percent) SELECT 'biz_bench_' || g, 'Business ' || g || ' Ltd', 'app_bench_' || g, g % 100 FROM generate_series(1, $1::int) g`,
    [n],
  );
  await db.query(
    `INSERT INTO outbox (id, template, language, recipient, subject, text_body, html_body, invitation_id, status, next_attempt_at, created_at, updated_at, sent_at, action_url)
     SELECT 'msg_bench_' || g, 'invitation', 'en', 'client-' || g || '@example.test', 'Your application', 'text', '<p>html</p>', 'inv_bench_' || g, 'sent', $1, $1, $1, $1,
            'https://app.example.test/invite/token-' || g
     FROM generate_series(1, $2::int) g`,
    [createdAt, n],
  );
  await db.query(`INSERT INTO reminder_steps (invitation_id, step, kind, due_at, updated_at) SELECT 'inv_bench_' || g, 'r1', 'reminder', $1, $2 FROM generate_series(1, $3::int) g`, [
    dueAt,
    createdAt,
    n,
  ]);
}

/** The floor: one read of every due step with what its reminder needs. */
async function baseline(db: Db, now: Date): Promise<number> {
  const t = performance.now();
  const rows = await db.query(
    `SELECT s.invitation_id, s.step, i.client_email, i.client_name, u.name, w.name AS business_name, w.progress_percent
       FROM reminder_steps s JOIN invitations i ON i.id = s.invitation_id JOIN users u ON u.id = i.created_by
       LEFT JOIN workspace_businesses w ON w.application_id = i.application_id
      WHERE s.status = 'scheduled' AND s.due_at <= $1`,
    [now],
  );
  if (rows.length !== invitations) throw new Error(`baseline read ${rows.length} due steps, expected ${invitations}`);
  return performance.now() - t;
}

async function tick(db: Db): Promise<{ ms: number; baselineMs: number; queued: number }> {
  const boss = await startJobQueue(db, 1);
  const now = new Date();
  const zone = middayZone(now);
  await seed(db, invitations, new Date(now.getTime() - 86_400_000), new Date(now.getTime() - 1_000), zone);
  const jobs = Array.from({ length: invitations }, (_, k) => ({
    name: REMINDER_QUEUE,
    data: { invitationId: `inv_bench_${k + 1}`, step: 'r1' },
    singletonKey: `inv_bench_${k + 1}:r1`,
    startAfter: new Date(now.getTime() - 1_000),
  }));
  for (let i = 0; i < jobs.length; i += 2_000) await boss.insert(jobs.slice(i, i + 2_000));
  const baselineMs = await baseline(db, new Date());
  // Asked through the partial index of scheduled steps, stopping at the first: the watching costs little, and is
  // asked often so the figure ends within a few milliseconds of the work.
  const left = async () => (await db.one(`SELECT 1 AS left FROM reminder_steps WHERE status = 'scheduled' LIMIT 1`)) !== null;
  const t = performance.now();
  await workReminders(boss, db, () => ({ origin: 'https://app.example.test', defaultTimeZone: zone, quiet: QUIET }), 0.5);
  const deadline = Date.now() + 600_000;
  while (await left()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the reminders to be queued');
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = performance.now() - t;
  await boss.stop({ graceful: true, wait: true, close: false, timeout: 20_000 });
  const queued = Number((await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM outbox o JOIN reminder_steps s ON s.message_id = o.id WHERE o.template = 'reminder' AND s.status = 'sent'`))!.n);
  return { ms, baselineMs, queued };
}

async function main() {
  const postgres = benchPostgres('bench_reminders');
  const met: Record<string, boolean> = {};
  const figures: Record<string, { tick_ms: number; baseline_ms: number; ratio: number; queued: number }> = {};
  try {
    console.log(`\nOne reminder tick: ${invitations} invitations with a reminder step just due`);
    console.log('database | baseline: one read of the due steps (ms) | tick: steps claimed, reminders queued (ms) | ratio | target');
    for (const database of databases) {
      let db: Db;
      const dataDir = database === 'embedded' ? mkdtempSync(join(tmpdir(), 'bench-reminders-')) : null;
      if (dataDir) db = await createDb({ dataDir });
      else db = await createDb({ url: await postgres.schema('tick') });
      try {
        const r = await tick(db);
        figures[database] = { tick_ms: round(r.ms), baseline_ms: round(r.baselineMs), ratio: Math.round((r.ms / r.baselineMs) * 10) / 10, queued: r.queued };
        met[`${database}.tick_ms`] = r.ms <= TARGET_MS && r.queued === invitations;
        console.log(`${database} | ${round(r.baselineMs)} | ${round(r.ms)} | ${figures[database]!.ratio} | ≤ ${TARGET_MS}`);
      } finally {
        await db.close();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      }
    }
    console.log(JSON.stringify({ bench: 'reminder-tick', invitations, figures, met }));
  } finally {
    await postgres.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
