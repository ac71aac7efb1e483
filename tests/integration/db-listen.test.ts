import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '@/server/db/postgres-driver';
import { testDrivers, useTestDb } from '@/tests/support/postgres';

/** Resolves once `check` holds, polling; fails after `ms`. */
async function eventually(check: () => boolean, what: string, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(testDrivers())('LISTEN/NOTIFY on %s', (driver) => {
  const t = useTestDb(driver);

  it('delivers a notification when its transaction commits, and none for a rolled-back one', async () => {
    const got: string[] = [];
    const stop = await t.db.listen('it_listen_commit', (p) => got.push(p));
    try {
      await t.db.transaction(async (tx) => {
        await tx.query(`SELECT pg_notify('it_listen_commit', 'committed')`);
        await tx.query(`SELECT pg_notify('it_listen_commit', 'also committed')`);
        expect(got).toEqual([]);
      });
      await expect(
        t.db.transaction(async (tx) => {
          await tx.query(`SELECT pg_notify('it_listen_commit', 'rolled back')`);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      await t.db.query(`SELECT pg_notify('it_listen_commit', 'last')`);
      await eventually(() => got.includes('last'), 'the last notification');
      expect(got).toEqual(['committed', 'also committed', 'last']);
    } finally {
      await stop();
    }
  });

  it('hears nothing after stop, and only its own channel', async () => {
    const got: string[] = [];
    const stop = await t.db.listen('it_listen_stop', (p) => got.push(p));
    // Another channel, still listened to after the stop: a notification sent on it after the ones under test
    // arrives after them, so once it is here they would have been too.
    const marks: string[] = [];
    const stopMarks = await t.db.listen('it_listen_stop_mark', (p) => marks.push(p));
    try {
      await t.db.query(`SELECT pg_notify('it_listen_other', 'elsewhere')`);
      await t.db.query(`SELECT pg_notify('it_listen_stop', 'before')`);
      await eventually(() => got.length === 1, 'the first notification');
      await stop();
      await t.db.query(`SELECT pg_notify('it_listen_stop', 'after')`);
      await t.db.query(`SELECT pg_notify('it_listen_stop', 'after again')`);
      await t.db.query(`SELECT pg_notify('it_listen_stop_mark', 'mark')`);
      await eventually(() => marks.includes('mark'), 'the mark sent after them');
      expect(got).toEqual(['before']);
    } finally {
      await stopMarks();
    }
  });

  it('refuses a channel that is not a plain identifier, and refuses on a transaction handle', async () => {
    await expect(t.db.listen('x; DROP TABLE users', () => {})).rejects.toThrow(/channel/);
    await t.db.transaction(async (tx) => {
      await expect(tx.listen('it_listen_tx', () => {})).rejects.toThrow(/transaction/);
    });
  });

  if (driver === 'postgres') {
    it('hears notifications sent by another instance (another pool on the same database)', async () => {
      const other = openPostgres(t.url!);
      const got: string[] = [];
      const stop = await t.db.listen('it_listen_instances', (p) => got.push(p));
      try {
        await other.query(`SELECT pg_notify('it_listen_instances', 'from B')`);
        await eventually(() => got.includes('from B'), 'the other instance’s notification');
      } finally {
        await stop();
        await other.close();
      }
    });

    it('reconnects its dedicated connection after losing it, says so, and hears again', async () => {
      const got: string[] = [];
      let reconnects = 0;
      const stop = await t.db.listen('it_listen_reconnect', (p) => got.push(p), { onReconnect: () => reconnects++ });
      try {
        const admin = new pg.Client({ connectionString: t.url! });
        await admin.connect();
        const killed = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query = 'LISTEN it_listen_reconnect'`,
        );
        await admin.end();
        expect(killed.rowCount).toBe(1);
        await eventually(() => reconnects === 1, 'the reconnect');
        await t.db.query(`SELECT pg_notify('it_listen_reconnect', 'after the loss')`);
        await eventually(() => got.includes('after the loss'), 'a notification after the reconnect');
      } finally {
        await stop();
      }
    });
  }
});
