import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { InvitationCreated } from '@/lib/bff/invitations';
import { createUser } from '@/server/auth';
import { createDb } from '@/server/db';
import type { Db } from '@/server/db/types';
import { startNextServer, type NextServer } from '../e2e/support/next-server';
import { adminQuery, withSearchPath } from '../support/pg-admin';
import { poller } from '../support/poller';
import { addressText, startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { BffClient, bffStack, stackApplication } from './support/bff';
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver';

/*
 * The mail queue as an operator sees it: one invitation mail delivered by an instance shows in its metrics (the
 * job, the delivery, the outbox by template and status) and as a job span in its traces. The instance keeps its
 * own database schema (and so its own job queue): a second mail worker on the shared one would take other
 * tests' deliveries.
 */

const TOKEN = 'metrics-token-of-the-queue-telemetry-test';
const until = poller({ timeoutMs: 60_000, everyMs: 200 });

let sink: SmtpSink;
let receiver: OtlpReceiver;
let server: NextServer;
let db: Db;
let pgUrl = '';
let schema = '';

beforeAll(async () => {
  const pg = inject('testPostgres');
  if (!pg?.url) throw new Error(`PostgreSQL is needed: ${pg?.error ?? 'not started'}`);
  pgUrl = pg.url;
  schema = `queue_telemetry_${process.pid}_${randomBytes(3).toString('hex')}`;
  await adminQuery(pgUrl, `CREATE SCHEMA ${schema}`);
  const databaseUrl = withSearchPath(pgUrl, schema);
  db = await createDb({ url: databaseUrl });
  sink = await startSmtpSink();
  receiver = await startOtlpReceiver();
  server = await startNextServer({
    env: {
      ...bffStack().appEnv,
      DATABASE_URL: databaseUrl,
      SMTP_URL: sink.url,
      MAIL_RETRY_SECONDS: '1',
      METRICS_TOKEN: TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    },
    logFile: join(mkdtempSync(join(tmpdir(), 'bff-queue-telemetry-')), 'next.log'),
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  receiver?.close();
  await sink?.close();
  await db?.close();
  if (schema) await adminQuery(pgUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

const scrape = async () => (await fetch(`${server.url}/api/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();

describe('the mail queue', () => {
  it('shows one delivered invitation mail in the metrics and as a job span', async () => {
    const email = `staff-${randomBytes(4).toString('hex')}@example.test`;
    const password = `pw-${randomBytes(9).toString('hex')}`;
    await createUser(db, { email, name: 'Queue Staff', role: 'staff', password });
    const staff = new BffClient(server.url);
    await staff.signIn(email, password);

    const before = await scrape();
    expect(before).toContain('# TYPE bff_outbox_messages gauge');
    expect(before).not.toMatch(/bff_mail_deliveries_total\{outcome="sent"\}/);

    const applicationId = await stackApplication(`Queue Telemetry ${Date.now()}`);
    const address = `client-${randomBytes(5).toString('hex')}@example.test`;
    const r = await staff.post(`/api/applications/${applicationId}/invitations`, { body: { client_email: address, client_name: 'Quinn Client' } });
    expect(r.status, r.text).toBe(201);
    const { message } = InvitationCreated.parse(r.body);
    await until(async () => sink.received.filter((m) => addressText(m.to).includes(address)), (m) => m.length === 1, 'the invitation mail');

    // The row turns `sent` just after the SMTP exchange: the scrape is read until it says so.
    const text = await until(scrape, (t) => /bff_outbox_messages\{template="invitation",status="sent"\} 1\b/.test(t), 'the outbox gauge to count the sent mail');
    expect(text).toMatch(/bff_mail_deliveries_total\{outcome="sent"\} 1\b/);
    expect(text).toMatch(/bff_jobs_total\{queue="mail-deliver",outcome="completed"\} 1\b/);
    expect(text).toMatch(/bff_job_duration_seconds_count\{queue="mail-deliver"\} 1\b/);
    expect(text).not.toMatch(/bff_outbox_messages\{template="invitation",status="queued"\} [1-9]/);
    expect(text).not.toContain(address);
    expect(text).not.toContain(message!.id);

    const job = await until(async () => receiver.spans.find((s) => s.name === 'job mail-deliver'), (s) => !!s, 'the job span');
    expect(job).toMatchObject({ kind: 5, parentSpanId: '', attributes: { 'messaging.system': 'pg-boss', 'messaging.destination.name': 'mail-deliver', 'mail.outcome': 'sent' } });
    // The claim and the `sent` update run inside the job, as its children.
    const queries = await until(async () => receiver.spans.filter((s) => s.parentSpanId === job!.spanId), (c) => c.filter((s) => s.name.startsWith('db ')).length >= 2, 'the queries under the job');
    expect(queries.every((s) => s.traceId === job!.traceId)).toBe(true);
  });
});
