import 'server-only';
import type { Db, SqlParam } from '@/server/db/types';
import { sameValue, type Actor, type FieldValue, type HistoryEvent } from './history-events';

interface StoredValue {
  schema_key: string;
  field_key: string;
  item_id: string;
  value: unknown;
  revision: number;
}

interface HistoryRow {
  schema_key: string;
  field_key: string;
  item_id: string;
  old_value: unknown;
  old_known: boolean;
  new_value: unknown;
  revision: number;
  actor_kind: Actor['kind'];
  actor_name: string | null;
}

const keyOf = (f: { schema_key: string; field_key: string; item_id: string | null }) => `${f.schema_key}\u0000${f.field_key}\u0000${f.item_id ?? ''}`;

/**
 * Applies a batch of events of one application in one transaction, in the order they happened. Two instances
 * applying events of one application take turns (a lock on the application for the transaction); the known
 * values of the fields the batch touches, and only those, are read once and written back once; the history
 * rows go in with one statement. Reading only the touched fields keeps an autosave's batch as cheap on an
 * application with a thousand known answers as on one with ten.
 */
export async function applyEvents(db: Db, applicationId: string, events: readonly HistoryEvent[]): Promise<void> {
  const touched = new Map<string, { schema_key: string; field_key: string; item_id: string }>();
  for (const e of events) for (const f of e.answers) touched.set(keyOf(f), { schema_key: f.schema_key, field_key: f.field_key, item_id: f.item_id ?? '' });
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`answer-history:${applicationId}`]);
    const rows = await tx.query<StoredValue>(
      `SELECT v.schema_key, v.field_key, v.item_id, v.value, v.revision
         FROM jsonb_to_recordset($2::jsonb) AS k(schema_key text, field_key text, item_id text)
         JOIN answer_values v ON v.application_id = $1 AND v.schema_key = k.schema_key AND v.field_key = k.field_key AND v.item_id = k.item_id`,
      [applicationId, JSON.stringify([...touched.values()])],
    );
    const known = new Map(rows.map((r) => [keyOf(r), r]));
    const changed = new Map<string, StoredValue>();
    const history: HistoryRow[] = [];
    const claims: { key: FieldValue; revision: number; actor: Actor }[] = [];

    const store = (f: FieldValue, revision: number) => {
      const row = { schema_key: f.schema_key, field_key: f.field_key, item_id: f.item_id ?? '', value: f.value ?? null, revision };
      known.set(keyOf(f), row);
      changed.set(keyOf(f), row);
    };
    const record = (f: FieldValue, before: StoredValue | undefined, revision: number, actor: Actor) =>
      history.push({
        schema_key: f.schema_key,
        field_key: f.field_key,
        item_id: f.item_id ?? '',
        old_value: before ? before.value : (f.previous ?? null),
        old_known: before !== undefined || f.previous !== undefined,
        new_value: f.value ?? null,
        revision,
        actor_kind: actor.kind,
        actor_name: actor.name,
      });

    for (const event of events) {
      for (const f of event.answers) {
        const before = known.get(keyOf(f));
        if (event.kind === 'write') {
          if (before && before.revision >= event.revision) {
            // A read at this revision got here first and took our own write for a change from outside: it is ours.
            if (before.revision === event.revision && sameValue(before.value, f.value)) claims.push({ key: f, revision: event.revision, actor: event.actor });
            continue;
          }
          const old = before ? before.value : f.previous;
          if (old === undefined || !sameValue(old, f.value)) record(f, before, event.revision, event.actor);
          store(f, event.revision);
        } else {
          // A value first seen is where its history starts; a read older than what is known says nothing new.
          if (!before) store(f, event.revision);
          else if (event.revision > before.revision && !sameValue(before.value, f.value)) {
            record(f, before, event.revision, event.actor);
            store(f, event.revision);
          }
        }
      }
    }

    if (changed.size > 0) {
      await tx.query(
        `INSERT INTO answer_values (application_id, schema_key, field_key, item_id, value, revision)
         SELECT $1, r.schema_key, r.field_key, r.item_id, r.value, r.revision
           FROM jsonb_to_recordset($2::jsonb) AS r(schema_key text, field_key text, item_id text, value jsonb, revision integer)
         ON CONFLICT (application_id, schema_key, field_key, item_id)
         DO UPDATE SET value = EXCLUDED.value, revision = EXCLUDED.revision`,
        [applicationId, JSON.stringify([...changed.values()])],
      );
    }
    if (history.length > 0) {
      await tx.query(
        `INSERT INTO answer_history (application_id, schema_key, field_key, item_id, old_value, old_known, new_value, revision, actor_kind, actor_name)
         SELECT $1, r.schema_key, r.field_key, r.item_id, r.old_value, r.old_known, r.new_value, r.revision, r.actor_kind, r.actor_name
           FROM jsonb_to_recordset($2::jsonb)
             AS r(schema_key text, field_key text, item_id text, old_value jsonb, old_known boolean, new_value jsonb, revision integer, actor_kind text, actor_name text)`,
        [applicationId, JSON.stringify(history)],
      );
    }
    for (const c of claims) {
      await tx.query(
        `UPDATE answer_history SET actor_kind = $6, actor_name = $7
          WHERE application_id = $1 AND schema_key = $2 AND field_key = $3 AND item_id = $4 AND revision = $5 AND actor_kind = 'outside'`,
        [applicationId, c.key.schema_key, c.key.field_key, c.key.item_id ?? '', c.revision, c.actor.kind, c.actor.name],
      );
    }
  });
}

/** A stored change as read back: its id and time, and the item as null at the top level. */
export interface HistoryEntry extends Omit<HistoryRow, 'item_id'> {
  id: number;
  item_id: string | null;
  at: Date;
}

const entryOf = (r: HistoryEntry & { item_id: string }): HistoryEntry => ({ ...r, id: Number(r.id), item_id: r.item_id === '' ? null : r.item_id });

const COLUMNS = 'id, schema_key, field_key, item_id, old_value, old_known, new_value, revision, actor_kind, actor_name, at';

/**
 * Newest first below `before`, under conditions that are all present (no `$n IS NULL OR …`): each shape then
 * gets a plan that walks its index backwards and stops after `limit` rows, on both databases.
 */
async function newestChanges(db: Db, where: [column: string, value: string][], limit: number, before: number | null): Promise<HistoryEntry[]> {
  const params: SqlParam[] = where.map(([, v]) => v);
  const conditions = where.map(([c], i) => `${c} = $${i + 1}`);
  if (before !== null) {
    params.push(before);
    conditions.push(`id < $${params.length}`);
  }
  params.push(limit);
  const rows = await db.query<HistoryEntry & { item_id: string }>(
    `SELECT ${COLUMNS} FROM answer_history WHERE ${conditions.join(' AND ')} ORDER BY id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map(entryOf);
}

/** One question's changes (one of its fields' when field_key is given), newest first; `before` (an entry id) pages back. */
export function fieldHistory(
  db: Db,
  applicationId: string,
  field: { schema_key: string; field_key: string | null; item_id: string | null },
  limit: number,
  before: number | null,
): Promise<HistoryEntry[]> {
  const where: [string, string][] = [
    ['application_id', applicationId],
    ['schema_key', field.schema_key],
    ...(field.field_key === null ? [] : [['field_key', field.field_key] as [string, string]]),
    ['item_id', field.item_id ?? ''],
  ];
  return newestChanges(db, where, limit, before);
}

/** Every answer change of an application, newest first; `before` (an entry id) pages back. */
export function applicationHistory(db: Db, applicationId: string, limit: number, before: number | null): Promise<HistoryEntry[]> {
  return newestChanges(db, [['application_id', applicationId]], limit, before);
}

/** Removes the changes older than `days` (the answers' known values stay: later reads still compare with them). */
export async function pruneHistory(db: Db, days: number): Promise<number> {
  const row = await db.one<{ n: number }>(
    `WITH gone AS (DELETE FROM answer_history WHERE at < now() - make_interval(days => $1::int) RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    [days],
  );
  return row?.n ?? 0;
}
