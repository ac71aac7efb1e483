import 'server-only';
import { AnswersQuery } from '@/lib/bff/applications';
import { AnswerPage, AnswersUpdateBody } from '@/lib/portal';
import { readAllAnswers } from '@/server/applications/answers';
import { answerSetEtag, upstreamIfMatch } from '@/server/applications/answers-etag';
import { answersPageView } from '@/server/applications/views';
import { withConflictReply } from '@/server/http/conflict-reply';
import { etagHeader, requireIfMatch } from '@/server/http/headers';
import { portalRequest } from '@/server/portal';
import { recordAnswersWritten } from '@/server/read-model/record';
import type { AnyApplicationKind } from './kind';
import { kindRoute } from './kind-route';
import { applicationAudit, kindParams } from './params';

/** GET …/answers (a page: page_size, cursor, section_key) and PATCH …/answers (If-Match; a 412 carries the current answers). */
export function answersRoutes<Id extends string>(kind: AnyApplicationKind<Id>) {
  const params = kindParams(kind).application;

  const GET = kindRoute(kind, { roles: kind.roles.read, params, query: AnswersQuery }, async ({ links, query, req, upstream }) => {
    const res = await portalRequest({ url: (await links()).answers, schema: AnswerPage, query, signal: req.signal });
    upstream.requestId = res.requestId;
    const etag = answerSetEtag(res.etag, res.data.answers_revision);
    return { body: answersPageView(res.data, etag), headers: etagHeader(etag) };
  });

  const PATCH = kindRoute(
    kind,
    { roles: kind.roles.write, params, body: AnswersUpdateBody, audit: applicationAudit(kind, kind.audit.application.answersUpdate) },
    async ({ id, db, links, body, req, upstream }) => {
      const ifMatch = upstreamIfMatch(requireIfMatch(req));
      const { updateAnswers, answers } = await links();
      const write = async () => {
        const res = await portalRequest({ method: 'PATCH', url: updateAnswers, schema: kind.answersResult, body, ifMatch, signal: req.signal });
        upstream.requestId = res.requestId;
        const { answers_revision, updated_answers, affected_section_keys } = res.data;
        const etag = answerSetEtag(res.etag, answers_revision);
        recordAnswersWritten(db, id, answers_revision);
        return { body: { answers_revision, updated_answers, affected_section_keys, etag }, headers: etagHeader(etag) };
      };
      // Someone else wrote first: the answers as they are now, so the browser merges at once.
      const current = async () => {
        const { items, answers_revision, etag } = await readAllAnswers({ answers }, req.signal);
        return { current: { items, answers_revision, etag }, etag };
      };
      return withConflictReply(upstream, write, current);
    },
  );

  return { GET, PATCH };
}
