import nodemailer from 'nodemailer';
import type PgBoss from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { deliverMessage, sweepAbandoned, workDeliveries } from '@/server/messages/deliver';
import { startJobQueue } from '@/server/messages/job-queue';
import { queueMessage, queueMessages, type OutboxRow } from '@/server/messages/outbox';
import { poller } from '@/tests/support/poller';
import { testDrivers, useTestDb } from '@/tests/support/postgres';
import { addressText, startSmtpSink, type SmtpSink } from '@/tests/support/smtp-sink';

const until = poller({ timeoutMs: 30_000, everyMs: 100 });
const options = () => ({ from: 'Intake <intake@example.test>', messageIdHost: 'intake.example.test', retrySeconds: 1 });

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
});
afterEach(() => sink.setMode({ kind: 'accept' }));

const message = (recipient: string, subject = 'Hello') => ({
  template: 'test',
  recipient,
  recipientName: 'Casey Client',
  mail: { subject, text: `Text for ${recipient}\n`, html: `<p>HTML for ${recipient}</p>`, language: 'en' },
  applicationId: null,
  invitationId: null,
  createdBy: null,
});

const arrivedFor = (recipient: string) => sink.received.filter((m) => addressText(m.to).includes(recipient));

describe.each(testDrivers())('message delivery through the job queue on %s', (driver) => {
  const t = useTestDb(driver);
  const transport = () => nodemailer.createTransport({ url: sink.url, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 });
  let boss: PgBoss;
  beforeAll(async () => {
    boss = await startJobQueue(t.db, 1);
    await workDeliveries(boss, t.db, transport(), options, 0.5);
  });
  afterAll(async () => {
    await boss.stop({ graceful: true, wait: true, close: false });
  });

  const statusOf = (id: string) => t.db.one<OutboxRow>('SELECT * FROM outbox WHERE id = $1', [id]);

  it('delivers a message queued in a committed transaction, and nothing of one rolled back', async () => {
    const tag = `${driver}-commit-${Date.now()}`;
    await expect(
      t.db.transaction(async (tx) => {
        await queueMessage(tx, boss, message(`rolled-${tag}@example.test`));
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    const kept = await t.db.transaction((tx) => queueMessage(tx, boss, message(`kept-${tag}@example.test`, 'Kept')));

    await until(() => statusOf(kept.id), (r) => r?.status === 'sent', 'the committed message to be sent');
    const [mail] = await until(async () => arrivedFor(`kept-${tag}`), (m) => m.length === 1, 'the committed message at the SMTP server');
    expect(mail!.subject).toBe('Kept');
    expect(mail!.messageId).toBe(`<${kept.id}@intake.example.test>`);
    expect(addressText(mail!.to)).toBe(`"Casey Client" <kept-${tag}@example.test>`);
    expect(mail!.text).toContain(`Text for kept-${tag}`);
    expect(mail!.html).toContain(`HTML for kept-${tag}`);
    // The same worker has delivered the committed one: the rolled-back one left neither a row nor a job.
    expect(arrivedFor(`rolled-${tag}`)).toEqual([]);
    expect(await t.db.query('SELECT id FROM outbox WHERE recipient = $1', [`rolled-${tag}@example.test`])).toEqual([]);
  });

  it('keeps the daily cap when messages to one address are queued at once', async () => {
    const address = `capped-${driver}-${Date.now()}@example.test`;
    const rows = await Promise.all(Array.from({ length: 8 }, (_, i) => t.db.transaction((tx) => queueMessage(tx, boss, message(address, `Capped ${i}`)))));
    const today = new Date().toISOString().slice(0, 10);
    const dueToday = rows.filter((r) => new Date(r.next_attempt_at).toISOString().slice(0, 10) === today);
    // The default cap (5) today; the rest held for a later day, each saying so.
    expect(dueToday).toHaveLength(5);
    expect(rows.filter((r) => r.held_reason !== null)).toHaveLength(3);
    await until(async () => arrivedFor(address), (m) => m.length === 5, 'the five messages due today at the SMTP server');
  });

  it('tries a message refused for now (451) again, and it is sent once the server takes it', async () => {
    sink.setMode({ kind: 'refuse', code: 451, text: 'Try again later, greylisted' });
    const tag = `${driver}-451-${Date.now()}`;
    const row = await t.db.transaction((tx) => queueMessage(tx, boss, message(`later-${tag}@example.test`)));
    const refused = await until(() => statusOf(row.id), (r) => r?.status === 'queued' && r.attempts >= 1, 'a first refused attempt');
    expect(refused!.last_error).toMatch(/451/);
    sink.setMode({ kind: 'accept' });
    const sent = await until(() => statusOf(row.id), (r) => r?.status === 'sent', 'the retried message to be sent');
    expect(sent!.attempts).toBeGreaterThanOrEqual(2);
    await until(async () => arrivedFor(`later-${tag}`), (m) => m.length === 1, 'the retried message at the SMTP server');
  });

  it('delivers messages queued together in chunks, and one refused for now is tried again on its own, each sent once', async () => {
    const tag = `${driver}-chunk-${Date.now()}`;
    // 30 messages at once: a chunk of 25 and one of 5. The SMTP server refuses them all for now at first.
    sink.setMode({ kind: 'refuse', code: 451, text: 'Try again later, greylisted' });
    const rows = await t.db.transaction((tx) => queueMessages(tx, boss, Array.from({ length: 30 }, (_, i) => message(`chunk-${i}-${tag}@example.test`, `Chunk ${i}`))));
    // pg-boss's schema beside the app's, as job-queue.ts names it.
    const schema = (await t.db.one<{ s: string }>('SELECT current_schema() AS s'))!.s;
    const jobs = await t.db.query<{ name: string; n: number }>(
      `SELECT name, count(*)::int AS n FROM ${schema === 'public' ? 'pgboss' : `${schema}_pgboss`}.job WHERE data->>'id' = ANY($1::text[]) OR data->'ids' ?| $1::text[] GROUP BY name`,
      [rows.map((r) => r.id)],
    );
    expect(jobs).toEqual([{ name: 'mail-deliver-chunk', n: 2 }]);
    await until(
      () => t.db.query<OutboxRow>('SELECT * FROM outbox WHERE id = ANY($1::text[])', [rows.map((r) => r.id)]),
      (all) => all.length === 30 && all.every((r) => r.status === 'queued' && r.attempts >= 1 && /451/.test(r.last_error ?? '')),
      'a first refused attempt of every message',
    );
    sink.setMode({ kind: 'accept' });
    const sent = await until(
      () => t.db.query<OutboxRow>('SELECT * FROM outbox WHERE id = ANY($1::text[])', [rows.map((r) => r.id)]),
      (all) => all.every((r) => r.status === 'sent'),
      'every message of the chunks to be sent on its own retry',
    );
    expect(sent.every((r) => r.attempts >= 2)).toBe(true);
    await until(async () => sink.received.filter((m) => addressText(m.to).includes(tag)), (m) => m.length === 30, 'the thirty messages at the SMTP server');
    for (let i = 0; i < 30; i++) expect(arrivedFor(`chunk-${i}-${tag}`)).toHaveLength(1);
  });

  it('marks a message refused for good (550) failed with the server reply, and does not try again', async () => {
    sink.setMode({ kind: 'refuse', code: 550, text: 'No such mailbox here' });
    const tag = `${driver}-550-${Date.now()}`;
    const row = await t.db.transaction((tx) => queueMessage(tx, boss, message(`nobody-${tag}@example.test`)));
    const failed = await until(() => statusOf(row.id), (r) => r?.status === 'failed', 'the refused message to fail');
    expect(failed!.last_error).toMatch(/550.*No such mailbox here/);
    expect(failed!.attempts).toBe(1);
    expect(arrivedFor(`nobody-${tag}`)).toEqual([]);
  });

  it('sends a message once when two deliveries of it race', async () => {
    const tag = `${driver}-race-${Date.now()}`;
    // Rows queued without the worker's job (a direct insert), so only the racing calls below send them.
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const id = `msg_race_${tag}_${i}`;
      const now = new Date();
      await t.db.query(
        `INSERT INTO outbox (id, template, language, recipient, subject, text_body, html_body, next_attempt_at, created_at, updated_at)
         VALUES ($1, 'test', 'en', $2, 'Race', 'text', '<p>html</p>', $3, $3, $3)`,
        [id, `race${i}-${tag}@example.test`, now],
      );
      ids.push(id);
    }
    const a = transport();
    const b = transport();
    const outcomes = await Promise.all(ids.flatMap((id) => [deliverMessage(t.db, a, id, options()), deliverMessage(t.db, b, id, options())]));
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(10);
    expect(outcomes.filter((o) => o === 'not-queued')).toHaveLength(10);
    for (let i = 0; i < 10; i++) await until(async () => arrivedFor(`race${i}-${tag}`), (m) => m.length === 1, `race message ${i}`);
    expect(sink.received.filter((m) => addressText(m.to).includes(tag))).toHaveLength(10);
  });

  it('keeps a message queued with the reason when the SMTP server cannot be reached', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    const down = nodemailer.createTransport({ url: `smtp://127.0.0.1:${port}`, connectionTimeout: 2_000 });
    const id = `msg_down_${driver}_${Date.now()}`;
    const now = new Date();
    await t.db.query(
      `INSERT INTO outbox (id, template, language, recipient, subject, text_body, html_body, next_attempt_at, created_at, updated_at)
       VALUES ($1, 'test', 'en', 'down@example.test', 'Down', 'text', '<p>html</p>', $2, $2, $2)`,
      [id, now],
    );
    expect(await deliverMessage(t.db, down, id, options())).toBe('retry');
    const row = await statusOf(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(row!.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(row!.next_attempt_at.getTime()).toBeGreaterThan(now.getTime());
  });

  it('marks a message left mid-send by a stopped process failed, never sending it again', async () => {
    const now = new Date();
    for (const [id, claimedAt] of [
      [`msg_old_${driver}`, new Date(now.getTime() - 20 * 60_000)],
      [`msg_new_${driver}`, new Date(now.getTime() - 1_000)],
    ] as const) {
      await t.db.query(
        `INSERT INTO outbox (id, template, language, recipient, subject, text_body, html_body, status, attempts, claimed_at, next_attempt_at, created_at, updated_at)
         VALUES ($1, 'test', 'en', 'mid@example.test', 'Mid-send', 'text', '<p>html</p>', 'sending', 1, $2, $2, $2, $2)`,
        [id, claimedAt],
      );
    }
    expect(await sweepAbandoned(t.db, 10 * 60_000, now)).toBe(1);
    expect(await statusOf(`msg_old_${driver}`)).toMatchObject({ status: 'failed', last_error: expect.stringMatching(/may or may not have arrived/) });
    expect(await statusOf(`msg_new_${driver}`)).toMatchObject({ status: 'sending' });
    // Its job, were it replayed, finds nothing queued to send.
    expect(await deliverMessage(t.db, transport(), `msg_old_${driver}`, options())).toBe('not-queued');
  });
});
