import 'server-only';
import type { Db } from '@/server/db/types';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * One thing a person did through the BFF. `detail` is for context (changed field keys, the error
 * code): never answers' contents, tokens, cookies or keys — the log outlives the data it describes.
 */
export interface AuditEntry {
  actorKind: 'user' | 'invitation';
  actorId: string;
  /** Who, readably, at the time: an email for a user, the invited client's name or email. */
  actorLabel: string;
  operation: string;
  objectType: string;
  objectId?: string | null;
  applicationId?: string | null;
  upstreamRequestId?: string | null;
  outcome: 'success' | 'failure';
  /** HTTP status the BFF answered with. */
  status: number;
  detail?: JsonValue;
  at?: Date;
}

export interface AuditRecord {
  id: number;
  at: Date;
  actorKind: 'user' | 'invitation';
  actorId: string;
  actorLabel: string;
  operation: string;
  objectType: string;
  objectId: string | null;
  applicationId: string | null;
  upstreamRequestId: string | null;
  outcome: 'success' | 'failure';
  status: number;
  detail: JsonValue | null;
}

/** A row of the audit_log table as the driver returns it. */
export interface AuditRow {
  id: number;
  at: Date;
  actor_kind: 'user' | 'invitation';
  actor_id: string;
  actor_label: string;
  operation: string;
  object_type: string;
  object_id: string | null;
  application_id: string | null;
  upstream_request_id: string | null;
  outcome: 'success' | 'failure';
  status: number;
  detail: JsonValue | null;
}

const COLUMNS =
  'id, at, actor_kind, actor_id, actor_label, operation, object_type, object_id, application_id, upstream_request_id, outcome, status, detail';

// A runaway detail (a whole upstream error body) would bloat every page of the log.
const MAX_DETAIL_CHARS = 8_192;

export const DEFAULT_AUDIT_PAGE = 50;
export const MAX_AUDIT_PAGE = 200;

function toRecord(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    at: row.at,
    actorKind: row.actor_kind,
    actorId: row.actor_id,
    actorLabel: row.actor_label,
    operation: row.operation,
    objectType: row.object_type,
    objectId: row.object_id,
    applicationId: row.application_id,
    upstreamRequestId: row.upstream_request_id,
    outcome: row.outcome,
    status: row.status,
    detail: row.detail,
  };
}

function serialiseDetail(detail: JsonValue | undefined): string | null {
  if (detail === undefined || detail === null) return null;
  const json = JSON.stringify(detail);
  return json.length <= MAX_DETAIL_CHARS ? json : JSON.stringify({ truncated: true, original_chars: json.length });
}

/** The columns of an entry in insert order, as the statements below bind them (and the journal keeps them). */
export function auditRowOf(entry: AuditEntry) {
  return {
    at: entry.at ?? new Date(),
    actor_kind: entry.actorKind,
    actor_id: entry.actorId,
    actor_label: entry.actorLabel,
    operation: entry.operation,
    object_type: entry.objectType,
    object_id: entry.objectId ?? null,
    application_id: entry.applicationId ?? null,
    upstream_request_id: entry.upstreamRequestId ?? null,
    outcome: entry.outcome,
    status: entry.status,
    detail: serialiseDetail(entry.detail),
  };
}

const INSERT_COLUMNS =
  'at, actor_kind, actor_id, actor_label, operation, object_type, object_id, application_id, upstream_request_id, outcome, status, detail';

// Several entries in one statement (group commit): the rows travel as one JSON array, so the statement's
// text is the same whatever the batch's size. detail arrives as text and is cast, as in recordAudit.
const INSERT_MANY_SQL = /* sql */ `
INSERT INTO audit_log (${INSERT_COLUMNS})
SELECT ${INSERT_COLUMNS.replace('detail', 'detail::jsonb')}
  FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (at timestamptz, actor_kind text, actor_id text, actor_label text, operation text,
       object_type text, object_id text, application_id text, upstream_request_id text, outcome text, status integer, detail text))
       WITH ORDINALITY AS r(${INSERT_COLUMNS}, n)
 ORDER BY n`;

/** An entry as a row to insert; `at` as a Date, or as its ISO text when read back from the journal. */
export type AuditInsertRow = Omit<ReturnType<typeof auditRowOf>, 'at'> & { at: Date | string };

// A journal replayed after a stop may hold rows already inserted (the process stopped between the commit and
// clearing the journal): those are skipped, matched by who, what, on which object, with which reply and when.
const INSERT_NEW_SQL = INSERT_MANY_SQL.replace(
  ' ORDER BY n',
  ` WHERE NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.at = r.at AND a.actor_id = r.actor_id AND a.operation = r.operation
                     AND a.object_id IS NOT DISTINCT FROM r.object_id AND a.upstream_request_id IS NOT DISTINCT FROM r.upstream_request_id)
 ORDER BY n`,
);

/** Writes several rows at once, in their order, in one statement (all or none); skipRecorded: see INSERT_NEW_SQL. */
export async function insertAuditRows(db: Db, rows: readonly AuditInsertRow[], options: { skipRecorded?: boolean } = {}): Promise<void> {
  if (rows.length === 0) return;
  await db.query(options.skipRecorded ? INSERT_NEW_SQL : INSERT_MANY_SQL, [JSON.stringify(rows)]);
}

/** Writes several entries at once, in their order, in one statement (all or none). */
export async function recordAuditMany(db: Db, entries: readonly AuditEntry[]): Promise<void> {
  await insertAuditRows(db, entries.map(auditRowOf));
}

export async function recordAudit(db: Db, entry: AuditEntry): Promise<AuditRecord> {
  const r = auditRowOf(entry);
  const row = await db.one<AuditRow>(
    `INSERT INTO audit_log (${INSERT_COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb)
     RETURNING ${COLUMNS}`,
    [r.at, r.actor_kind, r.actor_id, r.actor_label, r.operation, r.object_type, r.object_id, r.application_id, r.upstream_request_id, r.outcome, r.status, r.detail],
  );
  if (!row) throw new Error('INSERT … RETURNING gave no row');
  return toRecord(row);
}

export interface AuditPage {
  items: AuditRecord[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: number | null;
}

/**
 * An application's log, newest first. Paged by id rather than time: ids are unique and only grow, so
 * entries written at the same instant are neither skipped nor repeated between pages.
 */
export async function listAudit(
  db: Db,
  applicationId: string,
  { limit = DEFAULT_AUDIT_PAGE, before }: { limit?: number; before?: number | null } = {},
): Promise<AuditPage> {
  const size = Math.min(Math.max(Math.trunc(limit), 1), MAX_AUDIT_PAGE);
  // Two statements rather than `$2 IS NULL OR id < $2`, so both read the (application_id, id) index as a range.
  const rows =
    before === undefined || before === null
      ? await db.query<AuditRow>(`SELECT ${COLUMNS} FROM audit_log WHERE application_id = $1 ORDER BY id DESC LIMIT $2`, [applicationId, size + 1])
      : await db.query<AuditRow>(`SELECT ${COLUMNS} FROM audit_log WHERE application_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, [
          applicationId,
          before,
          size + 1,
        ]);
  const items = rows.slice(0, size).map(toRecord);
  const last = items[items.length - 1];
  return { items, nextBefore: rows.length > size && last ? last.id : null };
}
