import 'server-only';
import pg from 'pg';
import { dbOver, transactionHandle, type Executor } from './handle';
import { listenOnPostgres } from './postgres-listener';
import type { Db } from './types';

const INT8_OID = 20;

/**
 * pg returns int8 (bigserial ids, count(*)) as strings; PGlite returns numbers. Numbers everywhere keep
 * callers driver-blind; our int8 values (row ids, counts) stay far below 2^53.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

function executor(target: pg.Pool | pg.PoolClient): Executor {
  return {
    async query(sql, params) {
      return (await target.query<object>(sql, [...params])).rows;
    },
    async exec(sql) {
      // Without parameters pg uses the simple protocol, which accepts several statements.
      await target.query(sql);
    },
  };
}

export function openPostgres(url: string, options: { maxConnections?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString: url, types, max: options.maxConnections ?? 10 });
  // An idle client losing its connection emits 'error' on the pool; unhandled, that would end the process.
  pool.on('error', (err) => console.error('postgres pool: idle client error', err.message));

  const begin = async <T>(fn: (tx: Db) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    const { tx, end } = transactionHandle('postgres', executor(client));
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackErr: Error) => {
        // A connection that cannot roll back must not go back to the pool.
        broken = rollbackErr;
      });
      throw err;
    } finally {
      end();
      client.release(broken);
    }
  };
  let closed = false;
  const listeners = new Set<() => Promise<void>>();
  const listen: Db['listen'] = async (channel, onPayload, options) => {
    const stop = await listenOnPostgres(url, channel, onPayload, options);
    const stopOnce = async () => {
      if (listeners.delete(stopOnce)) await stop();
    };
    listeners.add(stopOnce);
    return stopOnce;
  };
  return dbOver(
    'postgres',
    executor(pool),
    begin,
    async () => {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
    listen,
  );
}
