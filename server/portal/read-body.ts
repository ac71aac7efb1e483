import 'server-only';

/** Replies are JSON documents; the largest contract is well under this. More means something is wrong. */
export const MAX_REPLY_BYTES = 32 * 1024 * 1024;
/** An error body is only read for its message and details. */
export const MAX_ERROR_BYTES = 64 * 1024;

export class ReplyTooLarge extends Error {}

/** A reply whose body was read whole already (http-transport.ts), or a fetch Response. */
type Reply = Response | { readonly bytes: Buffer | null };

/** Reads a body as UTF-8 up to `limit` bytes; `truncate` keeps what fits instead of failing. */
export async function readText(res: Reply, limit: number, truncate = false): Promise<string> {
  if (!(res instanceof Response)) {
    const bytes = res.bytes ?? Buffer.alloc(0);
    if (bytes.byteLength <= limit) return bytes.toString('utf8');
    if (!truncate) throw new ReplyTooLarge();
    return bytes.subarray(0, limit).toString('utf8');
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      await reader.cancel().catch(() => undefined);
      if (!truncate) throw new ReplyTooLarge();
      chunks.push(value.subarray(0, limit - size));
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads and drops a body so the connection can be reused (a whole reply has nothing left to read). */
export async function discard(res: Reply): Promise<void> {
  if (res instanceof Response) await res.body?.cancel().catch(() => undefined);
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
