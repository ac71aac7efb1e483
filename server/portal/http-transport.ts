import 'server-only';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { MAX_REPLY_BYTES } from './read-body';

// One keep-alive pool per protocol for every Portal call: the BFF talks to one upstream all day, and a
// fresh connection (and TLS handshake) per call would dominate a proxied request's cost. Node's http
// client is used rather than the global fetch, which Next.js wraps (caching, tracing) for every call.
const agents = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 15_000 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 15_000 }),
};

const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A Portal reply read whole: the part of a fetch Response the client uses, with the body as the bytes that
 * came (a web stream over them, and a Response to hold it, cost more per call than parsing the JSON).
 */
export interface WholeReply {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: Headers;
  /** Null for a status that has no body; at most MAX_REPLY_BYTES + 1 bytes (one past the limit is kept so the reader refuses it). */
  readonly bytes: Buffer | null;
}

/**
 * A minimal fetch over node:http for what the Portal client uses: redirects are never followed (the 3xx
 * comes back as it is), the signal aborts the exchange, and the body is read in full before it resolves.
 */
export function portalFetch(url: URL, init: { method: string; headers: Headers; body?: string; signal: AbortSignal }): Promise<WholeReply> {
  return new Promise((resolve, reject) => {
    if (init.signal.aborted) return reject(init.signal.reason);
    const secure = url.protocol === 'https:';
    const headers: Record<string, string> = {};
    init.headers.forEach((v, k) => {
      headers[k] = v;
    });
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
    const req = (secure ? httpsRequest : httpRequest)(url, { method: init.method, headers, agent: secure ? agents['https:'] : agents['http:'] });
    const onAbort = () => req.destroy(init.signal.reason instanceof Error ? init.signal.reason : new Error('aborted'));
    init.signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e) => {
      init.signal.removeEventListener('abort', onAbort);
      reject(e);
    });
    req.on('response', (res: IncomingMessage) => {
      const replyHeaders = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2) replyHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      const status = res.statusCode ?? 502;
      const reply = (bytes: Buffer | null): WholeReply => ({ status, ok: status >= 200 && status < 300, headers: replyHeaders, bytes });
      if (NO_BODY.has(status)) {
        init.signal.removeEventListener('abort', onAbort);
        res.resume();
        resolve(reply(null));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size > MAX_REPLY_BYTES) return;
        chunks.push(chunk);
        size += chunk.byteLength;
        if (size > MAX_REPLY_BYTES) res.destroy();
      });
      const settle = (fail: Error | null) => {
        init.signal.removeEventListener('abort', onAbort);
        if (fail && size <= MAX_REPLY_BYTES) reject(fail);
        else resolve(reply(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
      };
      res.on('end', () => settle(null));
      res.on('error', (e) => settle(e));
      res.on('close', () => {
        if (!res.complete) settle(new Error('the reply was cut short'));
      });
    });
    req.end(init.body);
  });
}
