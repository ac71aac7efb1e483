import 'server-only';

export type DbKind = 'pglite' | 'postgres';

/** A value that can be bound to a `$n` placeholder; JSON must be passed pre-serialised and cast (`$1::jsonb`). */
export type SqlParam = string | number | boolean | Date | null | readonly string[];

/**
 * The one query interface the BFF uses, whatever the driver. Both drivers speak the same PostgreSQL
 * dialect and parse result types the same way (timestamptz → Date, int8 → number, jsonb → value), so
 * callers never branch on `kind`; it is exposed for logs and diagnostics only.
 */
export interface Db {
  readonly kind: DbKind;
  /** One statement with `$n` placeholders; returns its rows. */
  query<T extends object>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** Like query, for statements that yield at most one row: null when none, throws when several. */
  one<T extends object>(sql: string, params?: readonly SqlParam[]): Promise<T | null>;
  /** A script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs fn in a transaction: committed when fn resolves, rolled back when it throws. Inside fn use
   * only `tx` (a nested call becomes a savepoint); the outer handle may wait for the transaction.
   */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Calls onPayload with every NOTIFY on `channel` (a lower-case identifier) sent by any connection to this
   * database, once its transaction commits, until the returned stop is called. PostgreSQL: one dedicated
   * connection per call, reconnected after a loss; onReconnect then says notifications may have been missed.
   * Refused on a transaction handle.
   */
  listen(channel: string, onPayload: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ListenOptions {
  onReconnect?: () => void;
  /** The subscription's connection was lost: notifications are missed until onReconnect. */
  onDisconnect?: () => void;
}

export interface DbConfig {
  /** A postgres:// or postgresql:// URL selects PostgreSQL; otherwise the embedded database is used. */
  url?: string | null;
  /** Directory holding the embedded database (in `<dataDir>/bff-db`); null keeps it in memory (tests). */
  dataDir?: string | null;
}
