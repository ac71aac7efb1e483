import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** A span as an OTLP/HTTP (JSON) collector receives it, ids in hex. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: Array<{ name: string }>;
}

export interface OtlpReceiver {
  /** Every span received so far, in arrival order. */
  spans: ReceivedSpan[];
  /** The collector's base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  close: () => void;
}

/** OTLP/JSON ids are hex; a base64 encoding is turned into hex too. */
const hexId = (id: string | undefined) => (!id ? '' : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex'));

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
const valueOf = (v: OtlpValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));

/** A local OTLP/HTTP trace receiver (JSON, gzip or not): what an app exporting to it sends is kept in `spans`. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const doc = JSON.parse(body.toString('utf8')) as { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }> }> };
      for (const rs of doc.resourceSpans ?? [])
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? []) {
            const attributes = (s.attributes as Array<{ key: string; value: OtlpValue }> | undefined) ?? [];
            spans.push({
              traceId: hexId(s.traceId as string),
              spanId: hexId(s.spanId as string),
              parentSpanId: hexId(s.parentSpanId as string | undefined),
              name: s.name as string,
              kind: s.kind as number,
              attributes: Object.fromEntries(attributes.map((a) => [a.key, valueOf(a.value)])),
              events: (s.events as Array<{ name: string }> | undefined) ?? [],
            });
          }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { spans, url: `http://127.0.0.1:${port}`, close: () => server.close() };
}
