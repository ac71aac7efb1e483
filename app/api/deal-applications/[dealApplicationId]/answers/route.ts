import { AnswersQuery } from '@/lib/bff/applications';
import { AnswerPage, AnswersUpdateBody } from '@/lib/portal';
import { answersPageView } from '@/server/applications/views';
import { preconditionFailedReply } from '@/server/http/conflict-reply';
import { readAllAnswers } from '@/server/applications/answers';
import { writeDealAnswers } from '@/server/deal-applications/answers';
import { dealApplicationLinks } from '@/server/deal-applications/links';
import { DealApplicationParams } from '@/server/deal-applications/params';
import { route } from '@/server/http/route';
import { etagHeader, requireIfMatch } from '@/server/http/params';
import { isPortalError, portalRequest } from '@/server/portal';

// GET /api/deal-applications/[dealApplicationId]/answers – a page of answers (page_size, cursor, section_key)
export const GET = route({ roles: ['staff'], params: DealApplicationParams, query: AnswersQuery }, async ({ params, query, req, upstream }) => {
  const links = await dealApplicationLinks(params.dealApplicationId, req.signal);
  const res = await portalRequest({ url: links.answers, schema: AnswerPage, query, signal: req.signal });
  upstream.requestId = res.requestId;
  const etag = res.etag ?? '';
  return { body: answersPageView(res.data, etag), headers: etagHeader(etag) };
});

// PATCH /api/deal-applications/[dealApplicationId]/answers – save answers; a 412 comes back with the current answers
export const PATCH = route(
  {
    roles: ['staff'],
    params: DealApplicationParams,
    body: AnswersUpdateBody,
    audit: {
      operation: 'deal_application.answers_update',
      object: ({ params }) => ({ type: 'deal_application', id: params.dealApplicationId, applicationId: params.dealApplicationId }),
    },
  },
  async ({ params, body, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const links = await dealApplicationLinks(params.dealApplicationId, req.signal);
    try {
      const res = await writeDealAnswers(links, body, ifMatch, req.signal);
      upstream.requestId = res.requestId;
      const etag = res.etag ?? '';
      const { answers_revision, updated_answers, affected_section_keys } = res.data;
      return { body: { answers_revision, updated_answers, affected_section_keys, etag }, headers: etagHeader(etag) };
    } catch (e) {
      if (!isPortalError(e) || !e.fromUpstream || e.status !== 412) throw e;
      // Someone else wrote first: hand back the answers as they are now, so the browser merges at once.
      upstream.requestId = e.requestId;
      const current = await readAllAnswers(links, req.signal);
      return preconditionFailedReply(e, current, current.etag);
    }
  },
);
