import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswersPageView } from '@/lib/bff/applications';
import { startNextServer, type NextServer } from '../e2e/support/next-server';
import { poller } from '../support/poller';
import { BffClient, bffDb, bffStack, newUser, stackApplication } from './support/bff';

/*
 * Traces as a collector receives them: an instance exports OTLP/HTTP to a receiver in this test, and one answer
 * write must arrive as a tree — the request's span, under it the Portal call and the database queries — whose
 * trace the audit row names (traceparent).
 */

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  events: Array<{ name: string }>;
}

const until = poller({ timeoutMs: 60_000, everyMs: 200 });
const spans: ReceivedSpan[] = [];
let receiver: http.Server;
let server: NextServer;

/** OTLP/JSON ids are hex; a base64 encoding is turned into hex too. */
const hexId = (id: string | undefined) => (!id ? '' : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex'));

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const doc = JSON.parse(body.toString('utf8')) as { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }> }> };
      for (const rs of doc.resourceSpans ?? [])
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? []) {
            spans.push({
              traceId: hexId(s.traceId as string),
              spanId: hexId(s.spanId as string),
              parentSpanId: hexId(s.parentSpanId as string | undefined),
              name: s.name as string,
              kind: s.kind as number,
              events: (s.events as Array<{ name: string }> | undefined) ?? [],
            });
          }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as import('node:net').AddressInfo).port;
  server = await startNextServer({
    env: { ...bffStack().appEnv, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_BSP_SCHEDULE_DELAY: '100' },
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
    const write = await staff.patch(`/api/applications/${applicationId}/answers`, {
      ifMatch: page.etag,
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
      async () => spans.find((s) => s.spanId === requestSpanId),
      (s) => !!s,
      'the request span to be exported',
    );
    expect(request!).toMatchObject({ traceId, name: 'PATCH {form}/answers', kind: 2 });
    const children = await until(
      async () => spans.filter((s) => s.parentSpanId === requestSpanId),
      (c) => c.some((s) => s.name.startsWith('portal PATCH')) && c.some((s) => s.name.startsWith('db ')),
      'the Portal call and the queries under the request',
    );
    const portal = children.find((s) => s.name.startsWith('portal PATCH'))!;
    expect(portal.name).toBe('portal PATCH /v1/client-intake-applications/{id}/answers/');
    expect(portal.kind).toBe(3);
    expect(children.every((s) => s.traceId === traceId)).toBe(true);
  });
});
