import 'server-only';
import { GatheredFlush } from '@/server/db/gathered-flush';
import { perDb } from '@/server/db/per-db';
import type { Db } from '@/server/db/types';
import { log } from '@/server/log';

/**
 * Notes wait this long to go in together: the embedded database runs on the app's own thread, so a statement
 * after every reply would still hold up the next request. Readers of the workspace do not wait for it.
 */
const GATHER_MS = 250;

interface Activity {
  revision: number | null;
  at: Date;
}

// One statement for every application written since the last one: the rows travel as one JSON array (as the
// audit's group commit does). GREATEST keeps each value monotone, so a late or repeated row never moves a
// business back, whatever came in between (the 1 s refresh, a webhook, the reconciler).
const UPDATE_SQL = /* sql */ `
UPDATE workspace_businesses b
   SET answers_revision = GREATEST(b.answers_revision, r.answers_revision),
       last_activity_at = GREATEST(b.last_activity_at, r.at),
       updated_at = r.at
  FROM jsonb_to_recordset($1::jsonb) AS r(application_id text, answers_revision integer, at timestamptz)
 WHERE b.application_id = r.application_id`;

/**
 * Answer writes recorded in the read model after the reply instead of before it. The row is a cache of the
 * Portal (the write has happened there already), so the person saving need not wait for it: writes are noted
 * in memory, merged per application (highest revision, latest time), gathered for GATHER_MS and applied by
 * one statement at a time, in order; writes noted while one runs go together into the next. A failure is logged and left to the
 * refresh that follows every write and to the reconciler. Reads of the workspace wait for what is pending
 * (settled), so the person who saved still sees it on their next page.
 */
export class AnswersActivity {
  private readonly pending = new Map<string, Activity>();
  private readonly flush = new GatheredFlush(() => this.drain(), GATHER_MS);

  constructor(private readonly db: Db) {}

  note(applicationId: string, revision: number | null, at: Date) {
    const seen = this.pending.get(applicationId);
    this.pending.set(applicationId, {
      revision: seen?.revision != null && (revision === null || seen.revision > revision) ? seen.revision : revision,
      at: seen && seen.at > at ? seen.at : at,
    });
    this.flush.soon();
  }

  /** Resolves once everything noted so far is applied (or its failure logged). */
  settled(): Promise<void> {
    return this.flush.settled();
  }

  private async drain() {
    while (this.pending.size > 0) {
      const rows = [...this.pending].map(([application_id, a]) => ({ application_id, answers_revision: a.revision, at: a.at.toISOString() }));
      this.pending.clear();
      try {
        await this.db.query(UPDATE_SQL, [JSON.stringify(rows)]);
      } catch (e) {
        log.warn('read model could not record a write', { write: 'answers.update', applications: rows.length, error: String(e) });
      }
    }
  }
}

const writers = perDb('answers-activity', (db) => new AnswersActivity(db));

/** The process's answer-activity writer for db. */
export const answersActivity = (db: Db): AnswersActivity => writers.of(db);
