import 'server-only';
import { NextResponse } from 'next/server';
import type { PreparationConflictReply } from '@/lib/bff/autofill';
import type { ApplicationLinks } from '@/server/applications/links';
import { isPortalError, toBrowserError, type PortalError } from '@/server/portal';
import { readPreparation } from './preparation';
import { preparationView } from './views';

/** A 412 from the Portal on a preparation write or a start (a stale ETag or revision). */
export const isPreparationConflict = (e: unknown): e is PortalError => isPortalError(e) && e.fromUpstream && e.status === 412;

/**
 * The 412 reply with the preparation as it is now, so the UI can say "it changed, here is the latest" and
 * let the user go on from it without another round trip.
 */
export async function preparationConflict(
  e: PortalError,
  applicationId: string,
  links: ApplicationLinks,
  signal?: AbortSignal,
): Promise<Response> {
  // The 412 is the answer; when the preparation cannot be read now, it goes out without `current`.
  const current = await readPreparation(applicationId, links, signal).catch(() => {
    throw e;
  });
  const mapped = toBrowserError(e);
  const body: PreparationConflictReply = {
    ...mapped.body,
    current: { preparation: preparationView(current.data), etag: current.etag },
  };
  const headers: Record<string, string> = { 'Cache-Control': 'private, no-store' };
  if (current.etag) headers.ETag = current.etag;
  return NextResponse.json(body, { status: 412, headers });
}
