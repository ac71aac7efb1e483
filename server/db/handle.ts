import 'server-only';
import { TooManyRowsError } from './errors';
import type { Db, DbKind, SqlParam } from './types';

type Listen = Db['listen'];

/** LISTEN takes an identifier, not a parameter: only plain lower-case names are let through. */
export function checkChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`not a valid notification channel name: ${channel}`);
  return channel;
}

/** What a driver (a PGlite instance or transaction, a pg pool or client) must offer to back a Db. */
export interface Executor {
  query(sql: string, params: readonly SqlParam[]): Promise<object[]>;
  exec(sql: string): Promise<void>;
}

type Begin = <T>(fn: (tx: Db) => Promise<T>) => Promise<T>;

/** Builds the Db surface once, so both drivers share `one` and the transaction rules. */
export function dbOver(kind: DbKind, ex: Executor, begin: Begin, close: () => Promise<void>, listen: Listen): Db {
  const query = async <T extends object>(sql: string, params: readonly SqlParam[] = []) =>
    // The driver boundary: rows are untyped there, callers state the shape their SQL selects.
    (await ex.query(sql, params)) as T[];
  return {
    kind,
    query,
    async one<T extends object>(sql: string, params: readonly SqlParam[] = []) {
      const rows = await query<T>(sql, params);
      if (rows.length > 1) throw new TooManyRowsError(rows.length);
      return rows[0] ?? null;
    },
    exec: (sql) => ex.exec(sql),
    transaction: begin,
    listen,
    close,
  };
}

/**
 * The handle given to a transaction's callback. It refuses use after the transaction ended: with pg
 * the connection is back in the pool by then and a stray query would run outside any transaction.
 */
export function transactionHandle(kind: DbKind, ex: Executor): { tx: Db; end: () => void } {
  let open = true;
  let savepoints = 0;
  const guarded: Executor = {
    query(sql, params) {
      if (!open) return Promise.reject(new Error('transaction handle used after its transaction ended'));
      return ex.query(sql, params);
    },
    exec(sql) {
      if (!open) return Promise.reject(new Error('transaction handle used after its transaction ended'));
      return ex.exec(sql);
    },
  };
  const nested: Begin = async (fn) => {
    const name = `sp_${++savepoints}`;
    await guarded.exec(`SAVEPOINT ${name}`);
    try {
      const result = await fn(tx);
      await guarded.exec(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      await guarded.exec(`ROLLBACK TO SAVEPOINT ${name}`);
      throw err;
    }
  };
  const tx = dbOver(
    kind,
    guarded,
    nested,
    () => Promise.reject(new Error('close the database, not a transaction handle')),
    () => Promise.reject(new Error('listen on the database, not on a transaction handle')),
  );
  return { tx, end: () => void (open = false) };
}
