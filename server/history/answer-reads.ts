import 'server-only';
import type { AnswerItem } from '@/lib/portal';
import { appDb } from '@/server/db/app-db';
import { log } from '@/server/log';
import type { Actor, FieldValue } from './history-events';
import { noteAnswersRead } from './history-recorder';

/** The values of answer items (of one repeatable item, or the top level) as history keys them. */
export const fieldValuesOf = (answers: readonly Pick<AnswerItem, 'schema_key' | 'field_key' | 'value'>[], itemId: string | null = null): FieldValue[] =>
  answers.map((a) => ({ schema_key: a.schema_key, field_key: a.field_key, item_id: itemId, value: a.value }));

interface AnswerSetRead {
  answers: { answers_revision: number; items: readonly AnswerItem[] };
  items?: readonly { item_id: string; answers: readonly AnswerItem[] }[];
}

/** A whole answer set read from the Portal (a form's snapshot): what changed since is someone's, outside by default. */
export function noteAnswerSetRead(applicationId: string, read: AnswerSetRead, actor?: Actor): void {
  const values = [...fieldValuesOf(read.answers.items), ...(read.items ?? []).flatMap((i) => fieldValuesOf(i.answers, i.item_id))];
  appDb().then(
    (db) => noteAnswersRead(db, applicationId, read.answers.answers_revision, values, actor),
    (e: unknown) => log.warn('answer history: no database to note a read in', { error: String(e) }),
  );
}
