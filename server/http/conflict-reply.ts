import 'server-only';
import { NextResponse } from 'next/server';
import { isPortalError, toBrowserError, type PortalError } from '@/server/portal';
import { etagHeader } from './headers';
import type { RouteResult } from './route';

/** The object a write was refused on, as it is now, with its ETag. */
export interface CurrentState {
  current: unknown;
  etag: string | null;
}

/** A 412 the Portal answered (not one made on this side): the write quoted an ETag that is no longer current. */
const isStaleWrite = (e: unknown): e is PortalError => isPortalError(e) && e.fromUpstream && e.status === 412;

/**
 * Runs a write that quotes an ETag. When the Portal refuses it with 412, the reply is that 412 with the
 * object as it is now (`current`) and its ETag, so the browser can show what changed and retry without
 * another read: `{ error: {…}, current }`, never cached, the Portal's request id recorded. When the object
 * cannot be read now, the 412 goes out as it came, without `current`.
 */
export async function withConflictReply<R>(
  write: () => Promise<RouteResult<R>>,
  readCurrent: () => Promise<CurrentState>,
): Promise<RouteResult<R>> {
  try {
    return await write();
  } catch (e) {
    if (!isStaleWrite(e)) throw e;
    const now = await readCurrent().catch(() => {
      throw e;
    });
    return conflictResponse(e, now);
  }
}

/** The 412 reply itself: the refusal with the object as it is now and its ETag. */
export function conflictResponse(e: PortalError, now: CurrentState): Response {
  return staleReply(toBrowserError(e).body, now);
}

/**
 * The same 412 for a revision the BFF keeps itself (an application's review state): the browser handles
 * both alike.
 */
export function staleStateResponse(message: string, now: CurrentState): Response {
  return staleReply({ error: { code: 'precondition_failed', message, request_id: null, details: [] } }, now);
}

function staleReply(body: object, now: CurrentState): Response {
  return NextResponse.json({ ...body, current: now.current }, { status: 412, headers: { 'Cache-Control': 'private, no-store', ...etagHeader(now.etag) } });
}
