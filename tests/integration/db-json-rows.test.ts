import { describe, expect, it } from 'vitest';
import { jsonRows } from '@/server/db/json-rows';
import { testDrivers, useTestDb } from '@/tests/support/postgres';

interface Row {
  id: string;
  at: Date | null;
  n: number;
  list: string[];
  flag: boolean;
}

describe.each(testDrivers())('rows read as one JSON document on %s', (driver) => {
  const t = useTestDb(driver);

  it('gives what query gives: named timestamps as Dates, null as null, numbers, arrays and booleans as such', async () => {
    const sql = `SELECT x.id, x.at, x.n, x.list, x.flag
                   FROM (VALUES ('a', '2026-12-07T10:00:00.123Z'::timestamptz, 1, '["s1","s2"]'::jsonb, true),
                                ('b', NULL::timestamptz, 2, '[]'::jsonb, false)) AS x(id, at, n, list, flag)
                  WHERE x.n <= $1 ORDER BY x.id`;
    const rows = await jsonRows<Row>(t.db, sql, [2], ['at']);
    expect(rows).toEqual(await t.db.query<Row>(sql, [2]));
    expect(rows[0]!.at).toBeInstanceOf(Date);
    expect(rows[0]!.at!.toISOString()).toBe('2026-12-07T10:00:00.123Z');
    expect(rows[1]!.at).toBeNull();
  });

  it('gives no rows as an empty list', async () => {
    expect(await jsonRows<Row>(t.db, `SELECT 1 AS n WHERE $1::int > 1`, [0], [])).toEqual([]);
  });
});
