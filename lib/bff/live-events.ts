import { z } from 'zod';

/**
 * One change announced to the browsers that have the object open (GET /api/events, server-sent events).
 * It names what changed, not how: the page reads the object again. `answers_revision` lets a page skip
 * the read when it already holds that revision (its own save coming back).
 */
export const LiveEventView = z.object({
  /** The webhook-id of the Portal's delivery. */
  id: z.string(),
  type: z.string(),
  occurred_at: z.string().nullable(),
  application_id: z.string().nullable(),
  business_id: z.string().nullable(),
  deal_id: z.string().nullable(),
  /** A funding project's events (DESIGN.md §6): its criteria, runs and matches. */
  project_id: z.string().nullable(),
  answers_revision: z.number().int().nullable(),
});
export type LiveEventView = z.infer<typeof LiveEventView>;

/**
 * Not Portal events. Resync: the stream (re)connected after a gap in which events may have been missed,
 * so the page should read again (sent by the server when its listener reconnected, and by the browser's
 * hook when its stream did). Session ended: the stream closes for good; reconnecting would be refused.
 */
export const LIVE_RESYNC = 'live.resync';
export const LIVE_SESSION_ENDED = 'live.session_ended';

/** What a page's handler gets: a Portal event, or word to read everything again. */
export type LiveMessageView = LiveEventView | { type: typeof LIVE_RESYNC };
