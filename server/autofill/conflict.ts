import 'server-only';
import type { IntakeLinks } from '@/server/application-kinds/intake';
import type { CurrentState } from '@/server/http/conflict-reply';
import { readPreparation } from './preparation';
import { preparationView } from './views';

/**
 * The preparation as it is now, for the 412 of a preparation write or a start (a stale ETag or revision):
 * the UI says "it changed, here is the latest" and lets the user go on from it without another round trip.
 */
export const currentPreparation =
  (applicationId: string, links: IntakeLinks, signal?: AbortSignal) => async (): Promise<CurrentState> => {
    const now = await readPreparation(applicationId, links, signal);
    return { current: { preparation: preparationView(now.data), etag: now.etag }, etag: now.etag };
  };
