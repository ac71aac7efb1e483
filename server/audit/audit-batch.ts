import 'server-only';
import { perDb } from '@/server/db/per-db';
import type { Db } from '@/server/db/types';
import { recordAuditMany, type AuditEntry } from './audit-log';

/** Enough rows per statement to empty any realistic queue in one go, small enough to bound a statement. */
const MAX_BATCH = 500;

interface Pending {
  entry: AuditEntry;
  done: () => void;
  failed: (e: unknown) => void;
}

/**
 * Group commit of the audit log: an entry is written at once when no write is in flight; entries that
 * arrive while one is become the next statement together. Each caller's promise settles when its own row
 * is committed (or its statement failed), so a route still answers only after its audit row is stored,
 * and nothing is lost: there is no timer and no buffer that outlives a request. Under load this turns one
 * INSERT per write into one per burst; at one connection it costs nothing.
 */
export class AuditWriter {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(private readonly db: Db) {}

  record(entry: AuditEntry): Promise<void> {
    return new Promise<void>((done, failed) => {
      this.queue.push({ entry, done, failed });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush() {
    this.flushing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await recordAuditMany(
          this.db,
          batch.map((p) => p.entry),
        );
        for (const p of batch) p.done();
      } catch (e) {
        for (const p of batch) p.failed(e);
      }
    }
    this.flushing = false;
  }
}

const writers = perDb('audit-writer', (db) => new AuditWriter(db));

/** Records an entry through the process's group commit for db; resolves once it is committed. */
export const recordAuditGrouped = (db: Db, entry: AuditEntry): Promise<void> => writers.of(db).record(entry);
