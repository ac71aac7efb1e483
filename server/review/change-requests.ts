import 'server-only';
import type { ChangeTarget } from '@/lib/bff/review';
import { newId } from '@/server/db/ids';
import type { Db } from '@/server/db/types';
import { sameValue } from '@/server/history/history-events';
import { recordReviewEvent, type ReviewActor } from './review-state';

export interface ChangeRequestRow {
  id: string;
  target: 'answer' | 'item' | 'file';
  block_key: string;
  schema_key: string;
  field_key: string;
  item_id: string;
  file_id: string;
  label: string;
  comment: string;
  staff_note: string | null;
  created_at: Date;
  resolved_at: Date | null;
  resolved_how: 'staff' | 'changed' | null;
  changed_from: unknown;
  changed_to: unknown;
}

export interface ReplyRow {
  request_id: string;
  author_kind: 'staff' | 'client';
  author_name: string | null;
  text: string;
  at: Date;
}

const COLUMNS =
  'id, target, block_key, schema_key, field_key, item_id, file_id, label, comment, staff_note, created_at, resolved_at, resolved_how, changed_from, changed_to';

/**
 * A new open request. An answer's request keeps the value history last knew of it, so a later change of
 * that value (the client's fix) resolves it.
 */
export async function createChangeRequest(
  tx: Db,
  applicationId: string,
  input: { target: ChangeTarget; blockKey: string; label: string; comment: string; staffNote: string | null; createdBy: string },
): Promise<string> {
  const t = input.target;
  const itemId = t.kind === 'item' ? t.item_id : (t.item_id ?? '');
  const schemaKey = t.kind === 'item' ? '' : t.schema_key;
  const fieldKey = t.kind === 'item' ? '' : t.field_key;
  const known =
    t.kind === 'answer'
      ? await tx.one<{ value: unknown }>('SELECT value FROM answer_values WHERE application_id = $1 AND schema_key = $2 AND field_key = $3 AND item_id = $4', [
          applicationId,
          schemaKey,
          fieldKey,
          itemId,
        ])
      : null;
  const id = newId('chg');
  await tx.query(
    `INSERT INTO change_requests (id, application_id, target, block_key, schema_key, field_key, item_id, file_id, label, comment, staff_note, value_at_request, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13)`,
    [
      id,
      applicationId,
      t.kind,
      input.blockKey,
      schemaKey,
      fieldKey,
      itemId,
      t.kind === 'file' ? t.file_id : '',
      input.label,
      input.comment,
      input.staffNote,
      JSON.stringify(known?.value ?? null),
      input.createdBy,
    ],
  );
  return id;
}

export async function listChangeRequests(db: Db, applicationId: string): Promise<{ requests: ChangeRequestRow[]; replies: ReplyRow[] }> {
  const [requests, replies] = await Promise.all([
    db.query<ChangeRequestRow>(`SELECT ${COLUMNS} FROM change_requests WHERE application_id = $1 ORDER BY created_at, id`, [applicationId]),
    db.query<ReplyRow>(
      `SELECT r.request_id, r.author_kind, r.author_name, r.text, r.at FROM change_request_replies r
         JOIN change_requests c ON c.id = r.request_id WHERE c.application_id = $1 ORDER BY r.id`,
      [applicationId],
    ),
  ]);
  return { requests, replies };
}

/** The request, when it is this application's (another application's is as missing as an unknown one). */
export function findChangeRequest(db: Db, applicationId: string, requestId: string): Promise<ChangeRequestRow | null> {
  return db.one<ChangeRequestRow>(`SELECT ${COLUMNS} FROM change_requests WHERE id = $1 AND application_id = $2`, [requestId, applicationId]);
}

export async function addReply(tx: Db, requestId: string, author: ReviewActor, text: string): Promise<void> {
  await tx.query('INSERT INTO change_request_replies (request_id, author_kind, author_name, text) VALUES ($1, $2, $3, $4)', [requestId, author.kind, author.name, text]);
}

export async function resolveByStaff(tx: Db, applicationId: string, request: ChangeRequestRow, staff: ReviewActor): Promise<void> {
  await tx.query(`UPDATE change_requests SET resolved_at = now(), resolved_how = 'staff', resolved_by = $2 WHERE id = $1 AND resolved_at IS NULL`, [request.id, staff.name]);
  await recordReviewEvent(tx, applicationId, 'request_resolved', staff, request.label);
}

/**
 * Open requests on answers whose value has changed since they were made are resolved by that change, which
 * they keep (from, to). Runs before the requests are read or the application is sent back, after history
 * has taken in every write noted so far.
 */
export async function resolveChangedAnswers(db: Db, applicationId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const open = await tx.query<{ id: string; label: string; value_at_request: unknown; value: unknown }>(
      `SELECT c.id, c.label, c.value_at_request, v.value FROM change_requests c
         JOIN answer_values v ON v.application_id = c.application_id AND v.schema_key = c.schema_key AND v.field_key = c.field_key AND v.item_id = c.item_id
        WHERE c.application_id = $1 AND c.target = 'answer' AND c.resolved_at IS NULL
        FOR UPDATE OF c`,
      [applicationId],
    );
    let resolved = 0;
    for (const r of open) {
      if (sameValue(r.value_at_request, r.value)) continue;
      await tx.query(
        `UPDATE change_requests SET resolved_at = now(), resolved_how = 'changed', changed_from = $2::jsonb, changed_to = $3::jsonb WHERE id = $1 AND resolved_at IS NULL`,
        [r.id, JSON.stringify(r.value_at_request ?? null), JSON.stringify(r.value ?? null)],
      );
      await recordReviewEvent(tx, applicationId, 'request_resolved', { kind: 'client', name: null }, r.label);
      resolved += 1;
    }
    return resolved;
  });
}
