import 'server-only';
import { currentRequest } from '@/server/context/request-context';
import { GatheredFlush } from '@/server/db/gathered-flush';
import { perDb } from '@/server/db/per-db';
import type { Db } from '@/server/db/types';
import { getEnv } from '@/server/env';
import { onDrain } from '@/server/lifecycle/drain';
import { log } from '@/server/log';
import { pruneHistory } from './history-store';
import type { Actor, FieldValue, HistoryEvent } from './history-events';
import { applyEvents } from './history-store';

/**
 * Events wait this long to go in together: a burst of autosaves becomes one transaction, and the write that
 * caused them does not wait for history at all (readers of history settle the queue first).
 */
const GATHER_MS = 100;
/** Changes older than the retention are removed at most this often, by the instance that records. */
const PRUNE_EVERY_MS = 3_600_000;

/**
 * The history queue of one database: events are noted in memory in the order their replies arrived and
 * applied in that order, one application's batch per transaction. A batch the database refused is logged and
 * dropped: history is a record beside the Portal's answers, never a reason to fail or hold up a write.
 */
class HistoryRecorder {
  private queue: HistoryEvent[] = [];
  private readonly flush = new GatheredFlush(() => this.drain(), GATHER_MS);
  private prunedAt = 0;

  constructor(
    private readonly db: Db,
    private readonly retentionDays: number,
  ) {}

  note(event: HistoryEvent) {
    if (event.answers.length === 0 || this.retentionDays === 0) return;
    this.queue.push(event);
    this.flush.soon();
  }

  settled(): Promise<void> {
    return this.flush.settled();
  }

  private async drain() {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      const byApplication = new Map<string, HistoryEvent[]>();
      for (const e of batch) {
        const list = byApplication.get(e.applicationId);
        if (list) list.push(e);
        else byApplication.set(e.applicationId, [e]);
      }
      for (const [applicationId, events] of byApplication) {
        try {
          await applyEvents(this.db, applicationId, events);
        } catch (e) {
          log.error('answer history: a batch was not recorded', { applicationId, events: events.length, error: String(e) });
        }
      }
    }
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await pruneHistory(this.db, this.retentionDays).catch((e: unknown) => log.warn('answer history: old changes were not removed', { error: String(e) }));
    }
  }
}

const recorders = perDb('answer-history', (db) => new HistoryRecorder(db, getEnv().historyRetentionDays));
// A stopping instance writes what it has noted before it goes.
onDrain('answer-history', async () => {
  await Promise.all([...recorders.all()].map((r) => r.settled()));
});

/** The actor of the current request: the signed-in staff member or reviewer, or the invited client. */
export function requestActor(): Actor {
  const session = currentRequest()?.session;
  if (!session) return { kind: 'outside', name: null };
  return session.kind === 'client' ? { kind: 'client', name: null } : { kind: session.role, name: session.userName };
}

/** A write of ours the Portal acknowledged at `revision`, by whoever the current request acts for. */
export function noteAnswersWritten(db: Db, applicationId: string, revision: number, answers: FieldValue[], actor: Actor = requestActor()): void {
  recorders.of(db).note({ kind: 'write', applicationId, revision, actor, answers });
}

/**
 * Values read from the Portal at `revision`: where one differs from what is known at an older revision, the
 * change is `actor`'s (outside the app by default).
 */
export function noteAnswersRead(db: Db, applicationId: string, revision: number, answers: FieldValue[], actor: Actor = { kind: 'outside', name: null }): void {
  recorders.of(db).note({ kind: 'observe', applicationId, revision, actor, answers });
}

/** Resolves once every event noted so far is applied (before history is read, and at shutdown). */
export function historySettled(db: Db): Promise<void> {
  return recorders.of(db).settled();
}
