import 'server-only';
import { AnswersQuery } from '@/lib/bff/applications';
import { AnswerPage, AnswersUpdateBody } from '@/lib/portal';
import { readAllAnswers } from '@/server/applications/answers';
import { answersPageView } from '@/server/applications/views';
import { withConflictReply } from '@/server/http/conflict-reply';
import { etagHeader, requireIfMatch } from '@/server/http/headers';
import { route } from '@/server/http/route';
import { portalRequest } from '@/server/portal';
import type { AnyApplicationKind } from './kind';
import { applicationIdOf, kindParams } from './params';

/** GET …/answers (a page: page_size, cursor, section_key) and PATCH …/answers (If-Match; a 412 carries the current answers). */
export function answersRoutes<Id extends string>(kind: AnyApplicationKind<Id>) {
  const params = kindParams(kind).application;
  const application = applicationIdOf(kind);

  const GET = route({ roles: kind.roles.read, params, query: AnswersQuery, application }, async ({ params, query, req, upstream }) => {
    const links = await kind.links.get(params[kind.idParam], req.signal);
    const res = await portalRequest({ url: links.answers, schema: AnswerPage, query, signal: req.signal });
    upstream.requestId = res.requestId;
    const etag = res.etag ?? '';
    return { body: answersPageView(res.data, etag), headers: etagHeader(etag) };
  });

  const PATCH = route(
    {
      roles: kind.roles.write,
      params,
      body: AnswersUpdateBody,
      application,
      audit: { operation: kind.audit.answersUpdate, object: ({ params }) => ({ type: kind.audit.type, id: params[kind.idParam], applicationId: params[kind.idParam] }) },
    },
    async ({ params, body, req, upstream }) => {
      const ifMatch = requireIfMatch(req);
      const links = await kind.links.get(params[kind.idParam], req.signal);
      return withConflictReply(
        upstream,
        async () => {
          const res = await portalRequest({ method: 'PATCH', url: links.updateAnswers, schema: kind.answersResult, body, ifMatch, signal: req.signal });
          upstream.requestId = res.requestId;
          const etag = res.etag ?? '';
          const { answers_revision, updated_answers, affected_section_keys } = res.data;
          return { body: { answers_revision, updated_answers, affected_section_keys, etag }, headers: etagHeader(etag) };
        },
        // Someone else wrote first: the answers as they are now, so the browser merges at once.
        async () => {
          const { items, answers_revision, etag } = await readAllAnswers(links, req.signal);
          return { current: { items, answers_revision, etag }, etag };
        },
      );
    },
  );

  return { GET, PATCH };
}
