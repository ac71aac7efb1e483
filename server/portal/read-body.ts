import 'server-only';

/** Replies are JSON documents; the largest contract is well under this. More means something is wrong. */
export const MAX_REPLY_BYTES = 32 * 1024 * 1024;
/** An error body is only read for its message and details. */
export const MAX_ERROR_BYTES = 64 * 1024;

export class ReplyTooLarge extends Error {}

/** Reads a body as UTF-8 up to `limit` bytes; `truncate` keeps what fits instead of failing. */
export async function readText(res: Response, limit: number, truncate = false): Promise<string> {
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

/** Reads and drops a body so the connection can be reused. */
export async function discard(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => undefined);
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
