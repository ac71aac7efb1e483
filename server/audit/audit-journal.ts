import 'server-only';
import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { log } from '@/server/log';
import type { AuditInsertRow } from './audit-log';

/** The journal's file, beside the embedded database in DATA_DIR. */
export const AUDIT_JOURNAL_FILE = 'audit-journal.jsonl';

/**
 * The embedded database's audit queue on disk: one JSON line per row, written with a synchronous write()
 * before the reply goes, and cleared once every row in it is committed to audit_log. The embedded database
 * itself runs with fsync off, so a committed row and a journalled line survive the same failures (a crash of
 * the process, not of the machine), while a line costs microseconds of the app's thread instead of a commit.
 * One process owns the embedded database (pglite-lock), so one owns its journal.
 */
export class AuditJournal {
  private readonly fd: number;

  constructor(dataDir: string) {
    this.fd = openSync(join(dataDir, AUDIT_JOURNAL_FILE), 'a+');
  }

  /** Rows a stopped process left behind; a line cut short by a crash mid-write is skipped. */
  leftovers(): AuditInsertRow[] {
    const text = readFileSync(this.fd, 'utf8');
    const rows: AuditInsertRow[] = [];
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        rows.push(JSON.parse(line) as AuditInsertRow);
      } catch {
        log.warn('audit journal: a line cut short was skipped', { chars: line.length });
      }
    }
    return rows;
  }

  /** Durable from here, as far as the embedded database's own commits are. */
  append(row: AuditInsertRow) {
    writeSync(this.fd, `${JSON.stringify(row)}\n`);
  }

  /** Every row written so far is committed. */
  clear() {
    ftruncateSync(this.fd, 0);
  }

  close() {
    closeSync(this.fd);
  }
}
