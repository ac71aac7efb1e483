import 'server-only';
import http from 'node:http';
import type { Socket } from 'node:net';
import { processWide } from '@/server/process-wide';

/*
 * Node refuses a request head (request line and headers) over its limit, 16 KiB by default, before any code of
 * ours runs: the server it hands the error to (Next's, which adds no listener) writes a bare 431 and closes. A
 * client then gets no error body to show or log. Next.js creates that server itself (`next start`, standalone
 * server.js) and hands it out nowhere, so the refusal is answered here, on every HTTP server of the process: a
 * full 431 reply in the API's error shape. Any other client error keeps Node's own answer.
 */

/** Node's default maxHeaderSize, which neither `next start` nor the standalone server changes. */
export const HEAD_LIMIT_BYTES = 16 * 1024;

const BODY = JSON.stringify({
  error: {
    code: 'request_head_too_large',
    message: `The request's headers are too large (over ${HEAD_LIMIT_BYTES / 1024} KiB with the request line): send fewer or shorter headers, or clear this site's cookies.`,
    request_id: null,
    details: [],
  },
});

const REPLY = [
  'HTTP/1.1 431 Request Header Fields Too Large',
  'Content-Type: application/json; charset=utf-8',
  `Content-Length: ${Buffer.byteLength(BODY)}`,
  'Cache-Control: private, no-store',
  'X-Content-Type-Options: nosniff',
  "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
  'Connection: close',
  '',
  BODY,
].join('\r\n');

function answerOversized(error: NodeJS.ErrnoException, socket: Socket): boolean {
  if (error.code !== 'HPE_HEADER_OVERFLOW') return false;
  // As Node does: a reply only when nothing was written yet on this connection's current response.
  if (socket.writable && socket.bytesWritten === 0) socket.end(REPLY);
  else socket.destroy(error);
  return true;
}

/**
 * Answers an oversized head on every HTTP server of this process that has no `clientError` listener of its own,
 * including one created before this ran (the hook sits on the prototype's emit). Idempotent.
 */
export function answerOversizedHeads(): void {
  const installed = processWide('oversized-head', () => ({ done: false }));
  if (installed.done) return;
  installed.done = true;
  const proto = http.Server.prototype as unknown as { emit: (event: string | symbol, ...args: unknown[]) => boolean };
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'clientError' && this.listenerCount('clientError') === 0 && answerOversized(args[0] as NodeJS.ErrnoException, args[1] as Socket)) return true;
    return emit.call(this, event, ...args);
  };
}
