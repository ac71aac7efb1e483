import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalidParameter } from './errors';

/** What a cursor carries: where to continue, which way, and what it was issued for. */
interface CursorPayload {
  /** Collection and filters the cursor is bound to. */
  scope: string;
  /** Keyset position: items strictly after (next) or before (prev) this sequence number. */
  at: number;
  dir: 'next' | 'prev';
  page_size: number;
}

/** Opaque, tamper-proof cursors: base64url JSON signed with the sandbox's secret. */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  private sign(data: string) {
    return createHmac('sha256', this.secret).update(data).digest('base64url').slice(0, 22);
  }

  encode(p: CursorPayload): string {
    const data = Buffer.from(JSON.stringify([p.scope, p.at, p.dir, p.page_size])).toString('base64url');
    return `${data}.${this.sign(data)}`;
  }

  /** Decodes a cursor for this scope and page size, or throws 400 naming the `cursor` parameter. */
  decode(cursor: string, scope: string, pageSize: number): CursorPayload {
    const bad = (why: string) => invalidParameter('cursor', `The cursor is not valid for this request: ${why}.`);
    const [data, sig] = cursor.split('.');
    if (!data || !sig) throw bad('malformed');
    const expected = Buffer.from(this.sign(data));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw bad('it was altered');
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(data, 'base64url').toString('utf8'));
    } catch {
      throw bad('malformed');
    }
    if (!Array.isArray(parsed) || parsed.length !== 4) throw bad('malformed');
    const [s, at, dir, ps] = parsed as [unknown, unknown, unknown, unknown];
    if (s !== scope) throw bad('it belongs to another collection or other filters');
    if (ps !== pageSize) throw bad('page_size changed while paging; start again from the first page');
    if (typeof at !== 'number' || (dir !== 'next' && dir !== 'prev')) throw bad('malformed');
    return { scope, at, dir, page_size: pageSize };
  }
}
