import 'server-only';
import { ID_PATTERNS } from '@/lib/portal';
import { isSessionLive } from '@/server/auth';
import { sessionPolicy } from '@/server/auth/session-settings';
import { AppError } from '@/server/http/app-error';
import { clientAddressOf } from '@/server/http/client-address';
import { route } from '@/server/http/route';
import { openEventStream } from '@/server/live/event-stream';
import { liveBus } from '@/server/live/live-bus';
import { admitStream, LIVE_STREAM_CAPS } from '@/server/live/stream-caps';
import { z } from 'zod';
import { api } from '@/lib/api/endpoints';

const oneOf = (pattern: RegExp, what: string) => z.string().regex(pattern, `not ${what}`).optional();

const EventsQuery = z
  .strictObject({
    application_id: z
      .string()
      .refine((v) => ID_PATTERNS.application.test(v) || ID_PATTERNS.dealApplication.test(v), 'not an application id')
      .optional(),
    business_id: oneOf(ID_PATTERNS.business, 'a business id'),
    deal_id: oneOf(ID_PATTERNS.deal, 'a deal id'),
    project_id: oneOf(ID_PATTERNS.project, 'a project id'),
  })
  .refine((q) => [q.application_id, q.business_id, q.deal_id, q.project_id].filter(Boolean).length === 1, {
    message: 'Name exactly one of application_id, business_id, deal_id and project_id.',
  });

// GET /api/events – server-sent events about the one application, business, deal or funding project a page has open
const events_GET = route(
  api.events.GET,
  // A client names only its own application: anything else is a 404, as on every application route.
  { roles: ['staff', 'reviewer', 'client'], query: EventsQuery, application: ({ query }) => query.application_id ?? '' },
  async ({ query, session, db, req }) => {
    const s = session!;
    // Businesses, deals and deal applications are staff's, like their own routes; projects staff's and reviewers'.
    const allowed = query.project_id
      ? s.role !== 'client'
      : query.application_id && !ID_PATTERNS.dealApplication.test(query.application_id)
        ? true
        : s.role === 'staff';
    if (!allowed) throw new AppError('forbidden', 'Your role does not allow this.');
    const release = admitStream(s.sid, clientAddressOf(req));
    if (!release) {
      throw new AppError(
        'too_many_streams',
        `Too many live-update streams are open (at most ${LIVE_STREAM_CAPS.perSession} per session and ${LIVE_STREAM_CAPS.perAddress} per address). Close a page and try again.`,
        [],
        { 'Retry-After': '30' },
      );
    }
    return openEventStream({
      onEnd: release,
      bus: liveBus(db),
      filter: { applicationId: query.application_id, businessId: query.business_id, dealId: query.deal_id, projectId: query.project_id },
      signal: req.signal,
      stillAllowed: () => isSessionLive(db, s.sid, new Date(), sessionPolicy()),
    });
  },
);

/** The route handlers of event: each route file under app/api re-exports its methods. */
export const eventRoutes = {
  events: { GET: events_GET },
};
