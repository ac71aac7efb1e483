import 'server-only';
import { embeddedDataDirOf } from '@/server/db/embedded-dir';
import { GatheredFlush } from '@/server/db/gathered-flush';
import { perDb } from '@/server/db/per-db';
import type { Db } from '@/server/db/types';
import { log } from '@/server/log';
import { AuditJournal } from './audit-journal';
import { auditRowOf, insertAuditRows, listAudit as listAuditRows, type AuditEntry, type AuditInsertRow } from './audit-log';

/** Enough rows per statement to empty any realistic queue in one go, small enough to bound a statement. */
const MAX_BATCH = 500;
/** A journalled batch the database refused is tried again after this long (the journal keeps it meanwhile). */
const JOURNAL_RETRY_MS = 1_000;
/**
 * Journalled rows wait this long to go in together: the embedded database runs on the app's own thread, so
 * a statement after every reply would still hold up the next request. Readers of the log do not wait for it.
 */
const JOURNAL_DRAIN_MS = 250;

interface Pending {
  row: AuditInsertRow;
  done: () => void;
  failed: (e: unknown) => void;
  /** Read back from the journal at start: it may be in the table already. */
  replayed?: boolean;
}

const ignore = () => undefined;

/**
 * Group commit of the audit log: a row is written at once when no write is in flight; rows that arrive
 * while one is become the next statement together. Under load this turns one INSERT per write into one per
 * burst; at one connection it costs nothing. Nothing is lost, in one of two ways:
 *
 * - PostgreSQL: each caller's promise settles when its own row is committed (or its statement failed), so a
 *   route answers only after its audit row is stored. There is no timer and no buffer that outlives a request.
 * - The embedded database on disk: the row is first appended to the journal (audit-journal.ts), as durable as
 *   the database's own commits, and the caller goes on at once; the row reaches the table with the others of
 *   the next JOURNAL_DRAIN_MS (at once when someone reads the log), a refused statement is retried, and the
 *   journal is cleared only when all it holds is committed. A journal left by a stopped process is replayed
 *   on first use.
 */
export class AuditWriter {
  private queue: Pending[] = [];
  private readonly flush = new GatheredFlush(() => this.drain(), JOURNAL_DRAIN_MS);

  constructor(
    private readonly db: Db,
    private readonly journal: AuditJournal | null = null,
  ) {
    const left = journal?.leftovers() ?? [];
    if (left.length > 0) {
      log.info('audit journal: replaying rows a stopped process left', { rows: left.length });
      for (const row of left) this.queue.push({ row, done: ignore, failed: ignore, replayed: true });
      this.flush.now();
    }
  }

  record(entry: AuditEntry): Promise<void> {
    const row = auditRowOf(entry);
    if (this.journal) {
      this.journal.append(row);
      this.queue.push({ row, done: ignore, failed: ignore });
      if (this.queue.length >= MAX_BATCH) this.flush.now();
      else this.flush.soon();
      return Promise.resolve();
    }
    return new Promise<void>((done, failed) => {
      this.queue.push({ row, done, failed });
      this.flush.now();
    });
  }

  /** Resolves once every row recorded so far is in the table (readers of the log wait for this). */
  settled(): Promise<void> {
    return this.flush.settled();
  }

  private async drain() {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await insertAuditRows(
          this.db,
          batch.map((p) => p.row),
          { skipRecorded: batch.some((p) => p.replayed) },
        );
        for (const p of batch) p.done();
      } catch (e) {
        for (const p of batch) p.failed(e);
        if (!this.journal) continue;
        // Journalled rows have been promised: keep them, first in line, and try again.
        log.error('audit rows could not be written; kept in the journal and retried', { rows: batch.length, error: String(e) });
        this.queue.unshift(...batch);
        await new Promise((resolve) => setTimeout(resolve, JOURNAL_RETRY_MS));
      }
    }
    // Nothing can be appended between the loop's last check and this (both synchronous): all it holds is committed.
    this.journal?.clear();
  }
}

const writers = perDb('audit-writer', (db) => {
  const dataDir = embeddedDataDirOf(db);
  return new AuditWriter(db, dataDir ? new AuditJournal(dataDir) : null);
});

/**
 * Records an entry through the process's group commit for db. Resolves once the row is committed, or (the
 * embedded database on disk) journalled.
 */
export const recordAuditGrouped = (db: Db, entry: AuditEntry): Promise<void> => writers.of(db).record(entry);

/** An application's log (listAudit in audit-log.ts), once every row this process recorded is in it. */
export async function listAudit(db: Db, applicationId: string, options?: Parameters<typeof listAuditRows>[2]) {
  await writers.of(db).settled();
  return listAuditRows(db, applicationId, options);
}
