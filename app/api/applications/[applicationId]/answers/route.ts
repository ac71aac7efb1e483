import { NextResponse } from 'next/server';
import { AnswersQuery } from '@/lib/bff/applications';
import { AnswerPage, AnswersUpdateBody } from '@/lib/portal';
import { readAllAnswers, writeAnswers } from '@/server/applications/answers';
import { applicationLinks } from '@/server/applications/links';
import { answersPageView } from '@/server/applications/views';
import { route } from '@/server/http/route';
import { ApplicationParams, etagHeader, requireIfMatch } from '@/server/http/params';
import { isPortalError, portalRequest, toBrowserError } from '@/server/portal';

const byApplication = ({ params }: { params: ApplicationParams }) => params.applicationId;

// GET /api/applications/[applicationId]/answers – a page of answers (page_size, cursor, section_key)
export const GET = route(
  { roles: ['staff', 'reviewer', 'client'], params: ApplicationParams, query: AnswersQuery, application: byApplication },
  async ({ params, query, req, upstream }) => {
    const links = await applicationLinks(params.applicationId, req.signal);
    const res = await portalRequest({ url: links.answers, schema: AnswerPage, query, signal: req.signal });
    upstream.requestId = res.requestId;
    const etag = res.etag ?? '';
    return { body: answersPageView(res.data, etag), headers: etagHeader(etag) };
  },
);

// PATCH /api/applications/[applicationId]/answers – save answers; a 412 comes back with the current answers
export const PATCH = route(
  {
    roles: ['staff', 'client'],
    params: ApplicationParams,
    body: AnswersUpdateBody,
    application: byApplication,
    audit: { operation: 'answers.update', object: ({ params }) => ({ type: 'application', id: params.applicationId, applicationId: params.applicationId }) },
  },
  async ({ params, body, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const links = await applicationLinks(params.applicationId, req.signal);
    try {
      const res = await writeAnswers(links, body, ifMatch, req.signal);
      upstream.requestId = res.requestId;
      const etag = res.etag ?? '';
      const { answers_revision, updated_answers, affected_section_keys } = res.data;
      return { body: { answers_revision, updated_answers, affected_section_keys, etag }, headers: etagHeader(etag) };
    } catch (e) {
      if (!isPortalError(e) || e.status !== 412) throw e;
      // Someone else wrote first: hand back the answers as they are now, so the browser merges at once.
      upstream.requestId = e.requestId;
      const current = await readAllAnswers(links, req.signal);
      const mapped = toBrowserError(e);
      return NextResponse.json(
        { ...mapped.body, current: { items: current.items, answers_revision: current.answers_revision, etag: current.etag } },
        { status: 412, headers: { 'Cache-Control': 'private, no-store', ETag: current.etag } },
      );
    }
  },
);
