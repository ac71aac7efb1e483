import 'server-only';
import type { AnswersPageView, ApplicationView, ContractView } from '@/lib/bff/applications';
import type { AnswerPage, Application, ApplicationContract } from '@/lib/portal';

/** Upstream shapes turned into what the browser gets: no Portal URL leaves the server. */
export function applicationView(app: Application, etag: string): ApplicationView {
  return {
    id: app.id,
    kind: 'client_intake',
    business: { id: app.business.id, name: app.business.name },
    status: app.status,
    progress: app.progress,
    submitted_at: app.submitted_at,
    updated_at: app.updated_at,
    revision: app.revision,
    answers_revision: app.answers_revision,
    etag,
  };
}

export function contractView(c: ApplicationContract): ContractView {
  return {
    contract_version: c.contract_version,
    answers_revision: c.answers_revision,
    application_name: c.application_name,
    description: c.description,
    instructions: c.instructions,
    sections: c.sections,
    repeatable_groups: c.repeatable_groups,
    questions: c.questions,
  };
}

export function answersPageView(page: AnswerPage, etag: string): AnswersPageView {
  return { items: page.items, next_cursor: page.next_cursor, answers_revision: page.answers_revision, etag };
}
