import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswersPageView } from '@/lib/bff/applications';
import { startNextServer, type NextServer } from '../e2e/support/next-server';
import { poller } from '../support/poller';
import { BffClient, bffDb, bffStack, newUser, stackApplication } from './support/bff';
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver';

/*
 * Traces as a collector receives them: an instance exports OTLP/HTTP to a receiver in this test, and one answer
 * write must arrive as a tree — the request's span, under it the Portal call and the database queries — whose
 * trace the audit row names (traceparent).
 */

const until = poller({ timeoutMs: 60_000, everyMs: 200 });
let receiver: OtlpReceiver;
let server: NextServer;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  server = await startNextServer({
    env: { ...bffStack().appEnv, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    logFile: join(mkdtempSync(join(tmpdir(), 'bff-tracing-')), 'next.log'),
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  receiver?.close();
});

describe('tracing', () => {
  it('exports one answer write as a span tree that the audit row points to', async () => {
    const { email, password } = await newUser('staff');
    const staff = new BffClient(server.url);
    await staff.signIn(email, password);
    const applicationId = await stackApplication(`Traced ${Date.now()}`);
    const page = AnswersPageView.parse((await staff.get(`/api/applications/${applicationId}/answers?page_size=500`)).body);
    const field = page.items.find((i) => i.value_type === 'string' && i.allowed_values.length === 0)!;
    // The caller's own trace (a gateway's, say): the request span continues it.
    const callerTrace = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const write = await staff.patch(`/api/applications/${applicationId}/answers`, {
      ifMatch: page.etag,
      headers: { traceparent: `00-${callerTrace}-${callerSpan}-01` },
      body: { answers_revision: page.answers_revision, answers: [{ block_key: field.block_key, schema_key: field.schema_key, field_key: field.field_key, value: 'Traced value' }] },
    });
    expect(write.status, write.text).toBe(200);

    const db = await bffDb();
    const audit = await until(
      () => db.query<{ detail: { traceparent?: string } | null }>(`SELECT detail FROM audit_log WHERE application_id = $1 AND operation LIKE '%answers%' ORDER BY id DESC LIMIT 1`, [applicationId]),
      (rows) => !!rows[0]?.detail?.traceparent,
      'the audit row of the write with its traceparent',
    );
    const [, traceId, requestSpanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(audit[0]!.detail!.traceparent!)!;

    const request = await until(
      async () => receiver.spans.find((s) => s.spanId === requestSpanId),
      (s) => !!s,
      'the request span to be exported',
    );
    expect(request!).toMatchObject({ traceId: callerTrace, parentSpanId: callerSpan, name: 'PATCH {form}/answers', kind: 2 });
    expect(traceId).toBe(callerTrace);
    const children = await until(
      async () => receiver.spans.filter((s) => s.parentSpanId === requestSpanId),
      (c) => c.some((s) => s.name.startsWith('portal PATCH')) && c.some((s) => s.name.startsWith('db ')),
      'the Portal call and the queries under the request',
    );
    const portal = children.find((s) => s.name.startsWith('portal PATCH'))!;
    expect(portal.name).toBe('portal PATCH /v1/client-intake-applications/{id}/answers/');
    expect(portal.kind).toBe(3);
    expect(children.every((s) => s.traceId === traceId)).toBe(true);
    // Next.js's own spans are not made: only the app's provider records, and it is not the global one.
    const names = receiver.spans.filter((s) => s.traceId === traceId).map((s) => s.name);
    expect(names.filter((n) => !/^(PATCH \{form\}\/answers$|portal |db )/.test(n))).toEqual([]);
  });
});
