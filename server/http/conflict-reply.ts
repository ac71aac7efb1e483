import 'server-only';
import { NextResponse } from 'next/server';
import { etagHeader } from '@/server/http/params';
import { toBrowserError, type PortalError } from '@/server/portal';

/**
 * A 412 from the Portal, passed through with the object as it is now (`current`), so the browser can show
 * what changed and retry with the new ETag without another read.
 */
export function preconditionFailedReply(e: PortalError, current: unknown, etag: string | null) {
  const mapped = toBrowserError(e);
  return NextResponse.json(
    { ...mapped.body, current },
    { status: 412, headers: { 'Cache-Control': 'private, no-store', ...etagHeader(etag) } },
  );
}
