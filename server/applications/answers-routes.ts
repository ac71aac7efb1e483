import 'server-only';
import { formApi } from '@/lib/api/endpoints';
import { AnswersQuery } from '@/lib/bff/applications';
import { AnswerPage, AnswersUpdateBody } from '@/lib/portal';
import { readAllAnswers } from './answers';
import { answerSetEtag, upstreamIfMatch } from './answers-etag';
import { answersPageView } from './application-views';
import { withConflictReply } from '@/server/http/conflict-reply';
import { etagHeader, requireIfMatch } from '@/server/http/headers';
import { portalRequest } from '@/server/portal';
import { recordAnswersWritten } from '@/server/read-model/record';
import { fieldValuesOf } from '@/server/history/answer-reads';
import { noteAnswersRead, noteAnswersWritten } from '@/server/history/history-recorder';
import type { AnyApplicationKind } from './kind';
import { kindRoute } from './kind-route';
import { applicationAudit, kindParams } from './kind-params';

/** GET …/answers (a page: page_size, cursor, section_key) and PATCH …/answers (If-Match; a 412 carries the current answers). */
export function answersRoutes<Id extends string>(kind: AnyApplicationKind<Id>) {
  const params = kindParams(kind).application;

  const GET = kindRoute(kind, formApi.answers.GET, { roles: kind.roles.read, params, query: AnswersQuery }, async ({ id, db, links, query }) => {
    const res = await portalRequest({ url: (await links()).answers, schema: AnswerPage, query });
    noteAnswersRead(db, id, res.data.answers_revision, fieldValuesOf(res.data.items));
    const etag = answerSetEtag(res.etag, res.data.answers_revision);
    return { body: answersPageView(res.data, etag), headers: etagHeader(etag) };
  });

  const PATCH = kindRoute(
    kind,
    formApi.answers.PATCH,
    { roles: kind.roles.write, params, body: AnswersUpdateBody, audit: applicationAudit(kind, kind.audit.application.answersUpdate) },
    async ({ id, db, links, body, req }) => {
      const ifMatch = upstreamIfMatch(requireIfMatch(req));
      const { updateAnswers, answers } = await links();
      const write = async () => {
        const res = await portalRequest({ method: 'PATCH', url: updateAnswers, schema: kind.answersResult, body, ifMatch });
        const { answers_revision, updated_answers, affected_section_keys } = res.data;
        const etag = answerSetEtag(res.etag, answers_revision);
        recordAnswersWritten(db, id, answers_revision);
        noteAnswersWritten(db, id, answers_revision, updated_answers.map((a) => ({ ...a, item_id: null })));
        return { body: { answers_revision, updated_answers, affected_section_keys, etag }, headers: etagHeader(etag) };
      };
      // Someone else wrote first: the answers as they are now, so the browser merges at once.
      const current = async () => {
        const { items, answers_revision, etag } = await readAllAnswers({ answers });
        noteAnswersRead(db, id, answers_revision, fieldValuesOf(items));
        return { current: { items, answers_revision, etag }, etag };
      };
      return withConflictReply(write, current);
    },
  );

  return { GET, PATCH };
}
