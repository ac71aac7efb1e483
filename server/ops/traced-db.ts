import 'server-only';
import type { Db, SqlParam } from '@/server/db/types';
import { SpanKind, inSpan, tracingOn } from './tracing';

/** A statement as a span shows it: the SQL with its `$n` placeholders (never the values), cut short. */
const attributesOf = (db: Db, sql: string) => ({
  'db.system.name': db.kind === 'postgres' ? 'postgresql' : 'pglite',
  'db.operation.name': /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL',
  'db.query.text': sql.length > 300 ? `${sql.slice(0, 300)}…` : sql,
});

/** The database with a span per query and per transaction; the database itself when tracing is off. */
export function tracedDb(db: Db): Db {
  if (!tracingOn()) return db;
  const span = <T>(sql: string, work: () => Promise<T>) => {
    const attributes = attributesOf(db, sql);
    return inSpan(`db ${attributes['db.operation.name']}`, SpanKind.CLIENT, attributes, work);
  };
  return {
    kind: db.kind,
    query: <T extends object>(sql: string, params?: readonly SqlParam[]) => span(sql, () => db.query<T>(sql, params)),
    one: <T extends object>(sql: string, params?: readonly SqlParam[]) => span(sql, () => db.one<T>(sql, params)),
    exec: (sql: string) => span(sql, () => db.exec(sql)),
    transaction: <T>(fn: (tx: Db) => Promise<T>) => inSpan('db transaction', SpanKind.INTERNAL, {}, () => db.transaction((tx) => fn(tracedDb(tx)))),
    listen: (channel, onPayload, options) => db.listen(channel, onPayload, options),
    close: () => db.close(),
  };
}
