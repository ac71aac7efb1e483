import 'server-only';
import type { AnswersPageView, ApplicationView, ContractView } from '@/lib/bff/applications';
import type { FileView } from '@/lib/bff/files';
import type { ItemsPageView, RepeatableItemView } from '@/lib/bff/items';
import type { AnswerFile, AnswerPage, Application, ApplicationContract, RepeatableItem, RepeatableItemPage } from '@/lib/portal';

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

export function itemView(item: RepeatableItem): RepeatableItemView {
  return { item_id: item.item_id, block_key: item.block_key, parent_item_id: item.parent_item_id, order: item.order, answers: item.answers };
}

export function itemsPageView(page: RepeatableItemPage, etag: string): ItemsPageView {
  return { items: page.items.map(itemView), next_cursor: page.next_cursor, answers_revision: page.answers_revision, etag };
}

/** A file without its signed download url: the browser downloads through the BFF. */
export function fileView(f: AnswerFile): FileView {
  return {
    id: f.id,
    filename: f.filename,
    content_type: f.content_type,
    size: f.size,
    created_at: f.created_at,
    block_key: f.block_key,
    schema_key: f.schema_key,
    field_key: f.field_key,
    item_id: f.item_id,
  };
}
