import { AnswerPage, AnswersMutationResult, AnswersQuery, AnswersUpdateBody, DealAnswersMutationResult, LIMITS } from '@/lib/portal';
import { answerItem, applyTopWrites, checkWrites, fileValues, topValue, topWriteResolver } from '../domain/answers';
import { kindOf, type ApplicationRec } from '../store/types';
import { criteriaChanged } from '../funding/projects';
import type { Sandbox } from '../sandbox';
import type { RouteDef } from '../http/context';
import { SandboxError, invalidParameter } from '../http/errors';
import { keysetPage, pageQuery } from '../http/paging';
import { CLIENT_INTAKE, specOf, type ApplicationKindSpec } from './application-kinds';
import { belowApplication } from './application-routes';
import { answersEtag, answersReply } from './views';

/**
 * Every write to the answer set moves answers_revision once, stamps the application and announces it
 * (a project's criteria as project.criteria_updated).
 */
export function answersChanged(sb: Sandbox, app: ApplicationRec) {
  const now = sb.now();
  app.answers_revision += 1;
  app.answers_updated_at = now;
  app.updated_at = now;
  sb.changed();
  if (kindOf(app) === 'criteria') return criteriaChanged(sb, app);
  sb.events.publish('application.answers_updated', {
    application_id: app.id,
    object: specOf(app).object,
    answers_revision: app.answers_revision,
  });
}

/** The revision in a write body must be the current one, like the ETag. */
export function checkRevision(app: ApplicationRec, given: number) {
  if (given !== app.answers_revision) {
    throw new SandboxError('precondition_failed', 'The answers changed since you read them: re-read, reconcile and retry.', [
      { code: 'stale_revision', message: `answers_revision ${given} is not the current revision.`, parameter: 'answers_revision' },
    ]);
  }
}

/** Answer reads and writes of one kind of application. */
export function answerRoutesFor(spec: ApplicationKindSpec): RouteDef[] {
  const deal = spec.kind === 'deal';
  return belowApplication(spec, 'answers', [
    {
      // GET {segment}/{id}/answers/ – a page of answers outside repeatable groups
      method: 'GET',
      path: 'answers/',
      query: AnswersQuery,
      summary: deal ? 'Read deal application answers' : 'Read answers',
      response: AnswerPage,
      handle: ({ sb, query }, app) => {
        const index = sb.index(app);
        const section = query.section_key as string | undefined;
        if (section !== undefined && !index.sectionByKey.has(section)) {
          throw invalidParameter('section_key', `The contract has no section ${section}.`);
        }
        const fields = section === undefined ? index.topFields : (index.topFieldsBySection.get(section) ?? []);
        const page = keysetPage({
          sb,
          items: fields,
          keyOf: (_f, i) => i,
          scope: `answers:${app.id}:${section ?? ''}`,
          ...pageQuery(query, LIMITS.answersPaging.default),
          backward: false,
        });
        const files = fileValues(app);
        return answersReply(app, {
          ...page,
          items: page.items.map((info) => answerItem(info, topValue(app, info, files))),
          answers_revision: app.answers_revision,
        });
      },
    },
    {
      // PATCH {segment}/{id}/answers/ – write answers (If-Match and answers_revision)
      method: 'PATCH',
      path: 'answers/',
      open: true,
      ifMatch: 'required',
      summary: deal ? 'Update deal application answers' : 'Update answers',
      requestBody: AnswersUpdateBody,
      response: deal ? DealAnswersMutationResult : AnswersMutationResult,
      handle: async (ctx, app) => {
        const { sb } = ctx;
        ctx.ifMatch(answersEtag(app));
        const body = await ctx.body(AnswersUpdateBody);
        checkRevision(app, body.answers_revision);
        const index = sb.index(app);
        const infos = checkWrites(index, body.answers, topWriteResolver(index));
        const before = JSON.stringify(infos.map((i) => app.answers[i.key] ?? null));
        const { updated, sections } = applyTopWrites(app, infos, body.answers.map((a) => a.value));
        if (JSON.stringify(infos.map((i) => app.answers[i.key] ?? null)) !== before) answersChanged(sb, app);
        const order = [...index.sectionByKey.values()].sort((a, b) => a.order - b.order).map((s) => s.section_key);
        return answersReply(app, {
          object: spec.answersObject,
          application: { id: app.id, object: spec.object },
          answers_revision: app.answers_revision,
          updated_answers: updated,
          affected_section_keys: order.filter((k) => sections.has(k)),
        });
      },
    },
  ]);
}

export const answerRoutes: RouteDef[] = answerRoutesFor(CLIENT_INTAKE);
