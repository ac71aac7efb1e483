import 'server-only';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { checkChannel, dbOver, transactionHandle, type Executor } from './handle';
import { lockEmbeddedDb } from './pglite-lock';
import type { Db } from './types';

function executor(target: PGlite | Transaction): Executor {
  return {
    async query(sql, params) {
      return (await target.query<object>(sql, [...params])).rows;
    },
    async exec(sql) {
      await target.exec(sql);
    },
  };
}

/**
 * The embedded database: persisted in `path`, or in memory when path is null. PGlite has a single
 * connection and queues callers; its own transaction() holds that queue for the whole callback, which
 * gives the same isolation a pooled connection gives with PostgreSQL.
 */
export async function openPglite(path: string | null, options: { loadDataDir?: Blob } = {}): Promise<Db> {
  const release = path === null ? () => {} : lockEmbeddedDb(path);
  let pg: PGlite;
  try {
    // loadDataDir starts from a dump (dumpDataDir) instead of running initdb: tests use a cached blank one.
    pg = path === null ? await PGlite.create({ loadDataDir: options.loadDataDir }) : await PGlite.create(path, { loadDataDir: options.loadDataDir });
  } catch (err) {
    release();
    throw err;
  }
  const begin = <T>(fn: (tx: Db) => Promise<T>) =>
    pg.transaction(async (raw) => {
      const { tx, end } = transactionHandle('pglite', executor(raw));
      try {
        return await fn(tx);
      } finally {
        end();
      }
    });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      await pg.close();
    } finally {
      release();
    }
  };
  // PGlite delivers NOTIFY to listeners of the same instance, on commit like PostgreSQL; one process
  // owns the embedded database, so that is every listener there can be. It never disconnects.
  const listen = async (channel: string, onPayload: (payload: string) => void) => {
    const stop = await pg.listen(checkChannel(channel), onPayload);
    return async () => {
      if (!closed) await stop();
    };
  };
  return dbOver('pglite', executor(pg), begin, close, listen);
}
