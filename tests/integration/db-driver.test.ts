import { describe, expect, it } from 'vitest';
import { TooManyRowsError } from '@/server/db/errors';
import { testDrivers, useTestDb } from '@/tests/support/postgres';

describe.each(testDrivers())('db query layer on %s', (driver) => {
  const t = useTestDb(driver);

  it('reports its kind', () => {
    expect(t.db.kind).toBe(driver);
  });

  it('parses result types the same way on both drivers', async () => {
    const row = await t.db.one<{ at: Date; big: number; doc: unknown; n: number; flag: boolean; arr: string[] }>(
      `SELECT $1::timestamptz AS at, 9007199254740::int8 AS big, $2::jsonb AS doc, count(*) AS n, true AS flag, $3::text[] AS arr
         FROM (VALUES (1), (2)) v(x)`,
      [new Date('2030-01-02T03:04:05.678Z'), JSON.stringify({ a: [1, 'x'] }), ['p', 'q']],
    );
    expect(row).toEqual({ at: new Date('2030-01-02T03:04:05.678Z'), big: 9007199254740, doc: { a: [1, 'x'] }, n: 2, flag: true, arr: ['p', 'q'] });
  });

  it('one: null for no row, the row for one, an error for several', async () => {
    expect(await t.db.one('SELECT 1 AS x WHERE false')).toBeNull();
    expect(await t.db.one<{ x: number }>('SELECT 1 AS x')).toEqual({ x: 1 });
    await expect(t.db.one('SELECT * FROM (VALUES (1), (2)) v(x)')).rejects.toBeInstanceOf(TooManyRowsError);
  });

  it('commits a transaction and rolls one back when its callback throws', async () => {
    await t.db.query(`INSERT INTO webhook_deliveries (id) VALUES ('kept')`);
    await t.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO webhook_deliveries (id) VALUES ('committed')`);
    });
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query(`INSERT INTO webhook_deliveries (id) VALUES ('rolled-back')`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const ids = await t.db.query<{ id: string }>('SELECT id FROM webhook_deliveries ORDER BY id');
    expect(ids.map((r) => r.id)).toEqual(['committed', 'kept']);
  });

  it('turns a nested transaction into a savepoint', async () => {
    await t.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO webhook_deliveries (id) VALUES ('outer')`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.query(`INSERT INTO webhook_deliveries (id) VALUES ('inner')`);
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      await tx.transaction((inner) => inner.query(`INSERT INTO webhook_deliveries (id) VALUES ('inner-ok')`));
    });
    const ids = await t.db.query<{ id: string }>('SELECT id FROM webhook_deliveries ORDER BY id');
    expect(ids.map((r) => r.id)).toEqual(['inner-ok', 'outer']);
  });

  it('a failed statement rolls the whole transaction back and the database stays usable', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query(`INSERT INTO webhook_deliveries (id) VALUES ('dup')`);
        await tx.query(`INSERT INTO webhook_deliveries (id) VALUES ('dup')`);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await t.db.query('SELECT id FROM webhook_deliveries')).toEqual([]);
    expect(await t.db.one<{ x: number }>('SELECT 1 AS x')).toEqual({ x: 1 });
  });

  it('refuses a transaction handle used after its transaction', async () => {
    const leaked = await t.db.transaction(async (tx) => tx);
    await expect(leaked.query('SELECT 1')).rejects.toThrow(/after its transaction ended/);
  });

  it('isolates concurrent transactions from each other', async () => {
    // Two transactions each read-then-write the same row under a row lock: the second sees the first's write.
    await t.db.query(`INSERT INTO webhook_deliveries (id) VALUES ('0')`);
    const bump = () =>
      t.db.transaction(async (tx) => {
        const row = await tx.one<{ id: string }>('SELECT id FROM webhook_deliveries FOR UPDATE');
        await tx.query('UPDATE webhook_deliveries SET id = $1', [String(Number(row?.id) + 1)]);
      });
    await Promise.all([bump(), bump(), bump()]);
    expect(await t.db.query('SELECT id FROM webhook_deliveries')).toEqual([{ id: '3' }]);
  });
});
