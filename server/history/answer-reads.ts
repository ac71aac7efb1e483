import 'server-only';
import type { AnswerItem } from '@/lib/portal';
import { appDb } from '@/server/db/app-db';
import type { Db } from '@/server/db/types';
import { log } from '@/server/log';
import { oncePerRevision } from '@/server/once-per-revision';
import type { Actor, FieldValue } from './history-events';
import { noteAnswersRead } from './history-recorder';

/** The values of answer items (of one repeatable item, or the top level) as history keys them. */
export const fieldValuesOf = (answers: readonly Pick<AnswerItem, 'schema_key' | 'field_key' | 'value'>[], itemId: string | null = null): FieldValue[] =>
  answers.map((a) => ({ schema_key: a.schema_key, field_key: a.field_key, item_id: itemId, value: a.value }));

interface AnswerSetRead {
  answers: { answers_revision: number; items: readonly AnswerItem[] };
  items?: readonly { item_id: string; answers: readonly AnswerItem[] }[];
}

/** Per database, once per revision of an application's whole answer set, in this process. */
const notedRevisions = new WeakMap<Db, (applicationId: string, revision: number) => boolean>();

/**
 * True once per revision of an application: a whole set read again at a revision already noted cannot show a
 * change (history compares only with older revisions), so the walk over every answer is skipped. This keeps
 * the cost off the hot path of opening a form, which reads the whole set every time.
 */
function firstReadOfRevision(db: Db, applicationId: string, revision: number): boolean {
  let first = notedRevisions.get(db);
  if (!first) notedRevisions.set(db, (first = oncePerRevision()));
  return first(applicationId, revision);
}

/** A whole answer set read from the Portal (a form's snapshot): what changed since is someone's, outside by default. */
export function noteAnswerSetRead(applicationId: string, read: AnswerSetRead, actor?: Actor): void {
  appDb().then(
    (db) => {
      if (!firstReadOfRevision(db, applicationId, read.answers.answers_revision)) return;
      const values = [...fieldValuesOf(read.answers.items), ...(read.items ?? []).flatMap((i) => fieldValuesOf(i.answers, i.item_id))];
      noteAnswersRead(db, applicationId, read.answers.answers_revision, values, actor);
    },
    (e: unknown) => log.warn('answer history: no database to note a read in', { error: String(e) }),
  );
}
