import { webhookHeaders } from '@/server/sandbox/webhooks/sign';
import type { BffClient } from './bff';

/** One `data:` message of an event stream, parsed. */
type StreamMessage = { type: string } & Record<string, unknown>;

export interface OpenStream {
  status: number;
  headers: Headers;
  /** The body when the server refused (not a stream). */
  text: string;
  messages: StreamMessage[];
  /** The raw text received so far (comments and `retry:` included). */
  raw(): string;
  /** The first message (already received or yet to come) that `match` accepts. */
  next(match: (m: StreamMessage) => boolean, timeoutMs?: number): Promise<StreamMessage>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * GET /api/events as the browser's EventSource would, with the client's cookie. Resolves once the server
 * has sent its first bytes (it is then subscribed), or with the refusal when it is not a stream.
 */
export async function openEventStream(client: BffClient, query: string, base = client.base): Promise<OpenStream> {
  const ac = new AbortController();
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (client.cookies.size) headers.Cookie = client.cookieHeader();
  const res = await fetch(`${base}/api/events?${query}`, { headers, signal: ac.signal });
  const messages: StreamMessage[] = [];
  const waiters = new Set<() => void>();
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, messages, raw: () => text, next: () => Promise.reject(new Error(`not a stream: ${res.status} ${text}`)), ended: Promise.resolve(), close: () => {} };
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let received = '';
  let buffer = '';
  let firstChunk!: () => void;
  const first = new Promise<void>((resolve) => (firstChunk = resolve));
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const chunk = decoder.decode(value, { stream: true });
        received += chunk;
        buffer += chunk;
        firstChunk();
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = frame
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (data) messages.push(JSON.parse(data) as StreamMessage);
        }
        for (const w of [...waiters]) w();
      }
    } catch {
      // Aborted by close().
    } finally {
      firstChunk();
      for (const w of [...waiters]) w();
    }
  })();
  await first;
  let finished = false;
  void ended.then(() => (finished = true));
  return {
    status: res.status,
    headers: res.headers,
    text: '',
    messages,
    raw: () => received,
    ended,
    close: () => ac.abort(),
    next(match, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (found) {
            cleanup();
            resolve(found);
          } else if (finished) {
            cleanup();
            reject(new Error(`the stream ended without the message; got ${JSON.stringify(messages)}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

export interface Delivery {
  id: string;
  body: string;
  headers: Record<string, string>;
}

/** A delivery as the Portal would send it, signed with `secret` at `timestamp`. */
export function signedDelivery(
  secret: string,
  event: { type: string; data: Record<string, unknown> },
  { id = `msg_${Math.random().toString(36).slice(2)}`, timestamp = new Date() }: { id?: string; timestamp?: Date } = {},
): Delivery {
  const body = JSON.stringify({ type: event.type, timestamp: new Date().toISOString(), data: event.data });
  return { id, body, headers: { 'Content-Type': 'application/json', ...webhookHeaders({ secret, id, timestamp, body }) } };
}

/** POSTs a delivery to the receiver the way a server would: no cookie, no CSRF header. */
export async function postDelivery(base: string, d: { body: string; headers: Record<string, string> }) {
  const res = await fetch(`${base}/api/webhooks/portal`, { method: 'POST', headers: d.headers, body: d.body });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, text, body: body as { error?: { code: string; message: string } } };
}
