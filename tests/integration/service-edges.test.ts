import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { BffErrorBody } from '@/lib/bff/errors';
import { bffStack } from './support/bff';

/*
 * An edge a client meets before any route runs: a request head Node refuses (over 16 KiB) must be answered in the
 * API's error shape, with a body a client can show, not a bare status on a closed connection. (A malformed path,
 * uploads included, is security-request-target.test.ts's.)
 */

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request over its own connection, headers exactly as given (fetch would add and check its own). */
function raw(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<RawReply> {
  const { hostname, port } = new URL(bffStack().url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const errorOf = (r: RawReply) => BffErrorBody.parse(JSON.parse(r.text)).error;

describe('a request head over 16 KiB', () => {
  it('is refused with 431 and a body in the error shape, on a route and on a page; one just under the limit is served', async () => {
    const under = await raw('GET', '/api/health', { Accept: 'application/json', 'X-Padding': 'a'.repeat(15 * 1024) });
    expect(under.status, under.text).toBe(200);
    for (const [path, headers] of [
      ['/api/health', { Accept: 'application/json', 'X-Padding': 'a'.repeat(17 * 1024) }],
      ['/', { Accept: 'text/html', Cookie: Array.from({ length: 40 }, (_, i) => `c${i}=${'v'.repeat(500)}`).join('; ') }],
    ] as const) {
      const r = await raw('GET', path, headers);
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(431);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.headers['cache-control']).toBe('private, no-store');
      expect(errorOf(r)).toMatchObject({ code: 'request_head_too_large', request_id: null });
      expect(errorOf(r).message).toMatch(/16 KiB/);
    }
  });
});
