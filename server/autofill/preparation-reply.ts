import 'server-only';
import type { PreparationReply } from '@/lib/bff/autofill';
import type { AutofillPreparation } from '@/lib/portal';
import type { IntakeLinks } from '@/server/applications/intake-application';
import { withConflictReply } from '@/server/http/conflict-reply';
import { etagHeader } from '@/server/http/headers';
import type { RouteResult } from '@/server/http/route';
import { readPreparation } from './preparation';
import { preparationView } from './autofill-views';

/** The preparation as the browser gets it, with the ETag its next write quotes. */
export function preparationReply(res: { data: AutofillPreparation; etag: string | null }) {
  const body: PreparationReply = { preparation: preparationView(res.data), etag: res.etag };
  return { body, headers: etagHeader(res.etag) };
}

/**
 * Runs a preparation write or a start. A 412 (a stale ETag or revision) comes back with the preparation as
 * it is now, so the UI says "it changed, here is the latest" and the user goes on without another round trip.
 */
export function withCurrentPreparation<R>(
  at: { applicationId: string; links: IntakeLinks },
  write: () => Promise<RouteResult<R>>,
) {
  return withConflictReply(write, async () => {
    const now = await readPreparation(at.applicationId, at.links);
    return { current: preparationReply(now).body, etag: now.etag };
  });
}
