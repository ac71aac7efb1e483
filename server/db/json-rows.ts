import 'server-only';
import type { Db, SqlParam } from './types';

/**
 * The rows of `sql` read as one JSON document: PostgreSQL builds it, and JSON.parse takes it apart at once. The
 * embedded database hands each field of each row to JavaScript on its own, so a batch of thousands of wide rows
 * cost more to receive than to find. JSON has no timestamps: the columns named in `dates` become Dates again
 * (null stays null); every other column comes as JSON gives it (numbers, strings, booleans, objects).
 */
export async function jsonRows<T extends object>(db: Db, sql: string, params: readonly SqlParam[], dates: readonly (keyof T & string)[]): Promise<T[]> {
  const row = await db.one<{ rows: Record<string, unknown>[] }>(`SELECT coalesce(json_agg(t), '[]'::json) AS rows FROM (${sql}) AS t`, params);
  const rows = row?.rows ?? [];
  for (const r of rows) for (const k of dates) if (typeof r[k] === 'string') r[k] = new Date(r[k]);
  return rows as T[];
}
