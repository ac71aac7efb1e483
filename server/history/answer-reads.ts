import 'server-only';
import type { AnswerItem } from '@/lib/portal';
import { appDb } from '@/server/db/app-db';
import type { Db } from '@/server/db/types';
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

/** Applications whose whole answer set this process has noted, by the revision it was read at (bounded). */
const MAX_REMEMBERED = 10_000;
const notedRevisions = new WeakMap<Db, Map<string, number>>();

/**
 * True once per revision of an application: a whole set read again at a revision already noted cannot show a
 * change (history compares only with older revisions), so the walk over every answer is skipped. This keeps
 * the cost off the hot path of opening a form, which reads the whole set every time.
 */
function firstReadOfRevision(db: Db, applicationId: string, revision: number): boolean {
  let noted = notedRevisions.get(db);
  if (!noted) notedRevisions.set(db, (noted = new Map()));
  const last = noted.get(applicationId);
  if (last !== undefined && revision <= last) return false;
  noted.delete(applicationId);
  noted.set(applicationId, revision);
  if (noted.size > MAX_REMEMBERED) noted.delete(noted.keys().next().value!);
  return true;
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
