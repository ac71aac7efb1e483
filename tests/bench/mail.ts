// Benchmark of mail delivery (DESIGN §8). Two parts:
//  1. Throughput: BENCH_MAIL_MESSAGES messages queued in the outbox, then delivered by the app's worker (the job
//     queue, the outbox claim, the app's SMTP transport) to a local SMTP server, on the embedded database and on
//     PostgreSQL. Baseline, in the same run: the same number of messages sent straight through the same
//     transport, one after another (what SMTP alone costs). Target ≥ 100 messages per second.
//  2. Restarts: two worker processes ("instances") on one PostgreSQL database deliver BENCH_MAIL_MESSAGES
//     messages; one is stopped (SIGTERM, as a process manager does) after a third have arrived and started
//     again. Counted at the SMTP server by Message-ID: 0 lost and 0 sent twice.
// Prints tables, then one JSON line with `met`. Delivery log lines are off (LOG_LEVEL=warn in the npm script).
//
//   BENCH_MAIL_MESSAGES (1000)
//   BENCH_DATABASES (embedded,postgres)   part 2 always needs PostgreSQL
//   TEST_DATABASE_URL                     PostgreSQL server to use (schemas of its own) instead of a throwaway cluster
import { fork, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createDb } from '@/server/db';
import type { Db } from '@/server/db/types';
import { workDeliveries } from '@/server/messages/deliver';
import { startJobQueue } from '@/server/messages/job-queue';
import { mailTransport } from '@/server/messages/mail-transport';
import { queueMessage } from '@/server/messages/outbox';
import { benchPostgres } from './lib/bench-postgres';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

const messages = Number(process.env.BENCH_MAIL_MESSAGES ?? 1000);
const databases = (process.env.BENCH_DATABASES ?? 'embedded,postgres').split(',') as Array<'embedded' | 'postgres'>;
const TARGET_PER_SECOND = 100;
const OPTIONS = { from: 'bench@example.test', messageIdHost: 'bench.example.test', retrySeconds: 1 };

const round = (n: number) => Math.round(n * 10) / 10;
const mail = (i: number) => ({
  subject: `Bench message ${i}`,
  text: `Hello, this is bench message ${i}.`,
  html: `<p>Hello, this is bench message ${i}.</p>`,
  language: 'en',
});

async function until(what: string, done: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function queueAll(db: Db, boss: Awaited<ReturnType<typeof startJobQueue>>, n: number, tag: string) {
  for (let i = 0; i < n; i++) {
    await db.transaction((tx) =>
      queueMessage(tx, boss, {
        template: 'bench',
        recipient: `client-${tag}-${i}@example.test`,
        recipientName: null,
        mail: mail(i),
        applicationId: null,
        invitationId: null,
        createdBy: null,
      }),
    );
  }
}

/** Messages per second straight through the transport, one after another: the floor under any queue. */
async function baseline(sink: SmtpSink, n: number) {
  const transport = mailTransport(sink.url);
  const before = sink.received.length;
  const t = performance.now();
  for (let i = 0; i < n; i++) await transport.sendMail({ from: OPTIONS.from, to: `direct-${i}@example.test`, ...mail(i) });
  await until('the direct messages', () => sink.received.length - before >= n, 120_000);
  transport.close();
  return n / ((performance.now() - t) / 1000);
}

async function throughput(db: Db, sink: SmtpSink, tag: string) {
  const boss = await startJobQueue(db, 1);
  await queueAll(db, boss, messages, tag);
  const transport = mailTransport(sink.url);
  const before = sink.received.length;
  const t = performance.now();
  await workDeliveries(boss, db, transport, () => OPTIONS, 0.5);
  await until('the queued messages', () => sink.received.length - before >= messages, 600_000);
  const perSecond = messages / ((performance.now() - t) / 1000);
  await boss.stop({ graceful: true, wait: true, close: false, timeout: 20_000 });
  transport.close();
  return perSecond;
}

function startInstance(url: string, sinkUrl: string): Promise<ChildProcess> {
  const child = fork(new URL('./lib/mail-worker-child.ts', import.meta.url).pathname, [], {
    execArgv: ['--conditions=react-server', '--import', 'tsx'],
    env: { ...process.env, MAIL_BENCH_DB_URL: url, MAIL_BENCH_SMTP_URL: sinkUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`a worker instance exited with ${code} before it was ready`)));
  });
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));

async function restarts(url: string, sink: SmtpSink) {
  const db = await createDb({ url });
  const boss = await startJobQueue(db, 1);
  await queueAll(db, boss, messages, 'restart');
  await boss.stop({ graceful: true, wait: true, close: false, timeout: 20_000 });
  const before = sink.received.length;
  const arrived = () => sink.received.length - before;
  let a = await startInstance(url, sink.url);
  const b = await startInstance(url, sink.url);
  try {
    await until('a third of the messages', () => arrived() >= messages / 3, 600_000);
    a.kill('SIGTERM');
    await exited(a);
    const atRestart = arrived();
    a = await startInstance(url, sink.url);
    // Every message has an outcome in the outbox (sent or failed) before counting.
    await until('every message to end', () => arrived() >= messages, 600_000).catch(() => undefined);
    const statuses = await db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM outbox WHERE template = 'bench' GROUP BY status`);
    const ids = sink.received.slice(before).map((m) => m.messageId ?? '');
    const distinct = new Set(ids).size;
    return { arrived: ids.length, distinct, duplicated: ids.length - distinct, lost: messages - distinct, atRestart, statuses: Object.fromEntries(statuses.map((s) => [s.status, s.n])) };
  } finally {
    a.kill('SIGTERM');
    b.kill('SIGTERM');
    await Promise.all([exited(a), exited(b)]);
    await db.close();
  }
}

async function main() {
  const sink = await startSmtpSink();
  const postgres = benchPostgres('bench_mail');
  const met: Record<string, boolean> = {};
  const rates: Record<string, number> = {};
  try {
    const floor = await baseline(sink, messages);
    rates.baseline = round(floor);
    console.log(`\n${messages} messages to a local SMTP server`);
    console.log('path | messages/s | ratio to baseline | target');
    console.log(`straight through the transport (baseline) | ${rates.baseline} | 1 | -`);
    for (const database of databases) {
      const db = database === 'embedded' ? await createDb({ dataDir: null }) : await createDb({ url: await postgres.schema('throughput') });
      try {
        rates[database] = round(await throughput(db, sink, database));
      } finally {
        await db.close();
      }
      met[`${database}.per_second`] = rates[database]! >= TARGET_PER_SECOND;
      console.log(`outbox → job queue → worker (${database}) | ${rates[database]} | ${round(rates[database]! / floor)} | ≥ ${TARGET_PER_SECOND}`);
    }
    const restart = await restarts(await postgres.schema('restart'), sink);
    console.log(`\nTwo instances on PostgreSQL, one stopped and started again after ${restart.atRestart} arrived`);
    console.log('arrived | distinct | duplicated | lost | outbox');
    console.log(`${restart.arrived} | ${restart.distinct} | ${restart.duplicated} | ${restart.lost} | ${JSON.stringify(restart.statuses)}`);
    met['restart.duplicated'] = restart.duplicated === 0;
    met['restart.lost'] = restart.lost === 0;
    console.log(JSON.stringify({ bench: 'mail', messages, per_second: rates, restart, met }));
  } finally {
    await postgres.close();
    await sink.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
