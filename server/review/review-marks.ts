import 'server-only';
import { createHash } from 'node:crypto';
import type { ReviewMarksView, ReviewSectionView } from '@/lib/bff/review-marks';
import type { ReviewState } from '@/lib/bff/review-text';
import type { Db } from '@/server/db/types';
import { sameValue } from '@/server/history/history-events';
import type { AnswerToReview, SectionToReview } from './review-answers';

export interface MarkRow {
  schema_key: string;
  field_key: string;
  item_id: string;
  file_id: string;
  value: unknown;
  marked_by_name: string | null;
  marked_at: Date;
}

/** Where a mark belongs: an answer (item_id '' at the top level), or one file of it. */
export interface MarkKey {
  schemaKey: string;
  fieldKey: string;
  itemId: string | null;
  fileId: string | null;
}

const rowKey = (k: { schema_key: string; field_key: string; item_id: string; file_id: string }) => `${k.schema_key}\u0000${k.field_key}\u0000${k.item_id}\u0000${k.file_id}`;
const answerKey = (a: MarkKey) => rowKey({ schema_key: a.schemaKey, field_key: a.fieldKey, item_id: a.itemId ?? '', file_id: a.fileId ?? '' });

export async function listMarks(db: Db, applicationId: string): Promise<Map<string, MarkRow>> {
  const rows = await db.query<MarkRow>(
    'SELECT schema_key, field_key, item_id, file_id, value, marked_by_name, marked_at FROM review_marks WHERE application_id = $1',
    [applicationId],
  );
  return new Map(rows.map((r) => [rowKey(r), r]));
}

export const markOf = (marks: ReadonlyMap<string, MarkRow>, answer: MarkKey) => marks.get(answerKey(answer)) ?? null;

/**
 * An answer's ETag for marking it: its value and its mark (when and by whom), so a change of either since the
 * page read it makes the page's copy stale.
 */
export function answerEtag(answer: AnswerToReview, mark: MarkRow | null): string {
  const basis = JSON.stringify([answer.value ?? null, mark ? [mark.value ?? null, mark.marked_at.toISOString(), mark.marked_by_name] : null]);
  return `"mark-${createHash('sha256').update(basis).digest('hex').slice(0, 24)}"`;
}

/** A mark counts while the value is still the one it was given to. */
const holds = (answer: AnswerToReview, mark: MarkRow | null) => mark !== null && sameValue(mark.value, answer.value);

export function marksView(state: ReviewState, sections: SectionToReview[], marks: ReadonlyMap<string, MarkRow>): ReviewMarksView {
  const views = sections
    .filter((s) => s.answers.length > 0 || s.items.length > 0)
    .map((s): ReviewSectionView => {
      const answers = s.answers.map((a) => {
        const mark = markOf(marks, a);
        const current = holds(a, mark);
        return {
          key: a.key,
          field_name: a.fieldName,
          schema_key: a.schemaKey,
          field_key: a.fieldKey,
          item_id: a.itemId,
          file_id: a.fileId,
          label: a.label,
          value_text: a.valueText,
          etag: answerEtag(a, mark),
          mark: current && mark ? { by: mark.marked_by_name, at: mark.marked_at.toISOString() } : null,
          changed_since_mark: mark !== null && !current,
        };
      });
      return { section_key: s.sectionKey, label: s.label, reviewed: answers.filter((a) => a.mark).length, total: answers.length, answers, items: s.items };
    });
  return { state, reviewed: views.reduce((n, s) => n + s.reviewed, 0), total: views.reduce((n, s) => n + s.total, 0), sections: views };
}

/** Marks the answer "Looks right" with its value now (a mark given again replaces the old one). */
export async function putMark(tx: Db, applicationId: string, answer: AnswerToReview, by: { id: string; name: string | null }): Promise<void> {
  await tx.query(
    `INSERT INTO review_marks (application_id, schema_key, field_key, item_id, file_id, value, marked_by, marked_by_name)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
     ON CONFLICT (application_id, schema_key, field_key, item_id, file_id)
     DO UPDATE SET value = EXCLUDED.value, marked_by = EXCLUDED.marked_by, marked_by_name = EXCLUDED.marked_by_name, marked_at = now()`,
    [applicationId, answer.schemaKey, answer.fieldKey, answer.itemId ?? '', answer.fileId ?? '', JSON.stringify(answer.value ?? null), by.id, by.name],
  );
}

export async function removeMark(tx: Db, applicationId: string, answer: MarkKey): Promise<void> {
  await tx.query('DELETE FROM review_marks WHERE application_id = $1 AND schema_key = $2 AND field_key = $3 AND item_id = $4 AND file_id = $5', [
    applicationId,
    answer.schemaKey,
    answer.fieldKey,
    answer.itemId ?? '',
    answer.fileId ?? '',
  ]);
}
