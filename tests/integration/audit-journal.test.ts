import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listAudit, recordAuditGrouped } from '@/server/audit';
import { AuditWriter } from '@/server/audit/audit-batch';
import { AUDIT_JOURNAL_FILE, AuditJournal } from '@/server/audit/audit-journal';
import { auditRowOf, insertAuditRows, type AuditEntry } from '@/server/audit/audit-log';
import { createDb } from '@/server/db';
import type { Db } from '@/server/db/types';
import { bffWriteLoad, prepareWriteTargets } from '../bench/lib/scenarios';
import { startBff } from '../bench/lib/start-bff';
import { poller } from '../support/poller';
import { bffStack } from './support/bff';
import { KEYS } from './support/sandbox';

/*
 * The embedded database's audit journal (server/audit/audit-journal.ts): a write's audit row is on disk
 * before its reply, reaches audit_log after it, and survives the process being killed in between.
 */

const entry = (app: string, n: number): AuditEntry => ({
  actorKind: 'user',
  actorId: 'usr_journal',
  actorLabel: 'journal@example.test',
  operation: 'answers.update',
  objectType: 'client_intake_application',
  objectId: app,
  applicationId: app,
  upstreamRequestId: `req_journal${n}`,
  outcome: 'success',
  status: 200,
});

const until = poller({ timeoutMs: 15_000, everyMs: 50 });

/** Whether any process of a process group is still there. */
function groupAlive(pgid: number) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const journalLines = (dir: string) => readFileSync(join(dir, AUDIT_JOURNAL_FILE), 'utf8').split('\n').filter(Boolean);
const requestIds = async (db: Db, app: string) => (await listAudit(db, app)).items.map((r) => r.upstreamRequestId).reverse();

describe('audit journal of the embedded database', () => {
  const open: Array<{ db: Db; dir: string }> = [];
  async function embedded() {
    const dir = mkdtempSync(join(tmpdir(), 'audit-journal-'));
    const db = await createDb({ dataDir: dir });
    open.push({ db, dir });
    return { db, dir };
  }
  afterEach(async () => {
    for (const { db, dir } of open.splice(0)) {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has the row on disk when the caller goes on, in the table right after, and then an empty journal', async () => {
    const { db, dir } = await embedded();
    const recorded = [recordAuditGrouped(db, entry('ciappl_j1', 1)), recordAuditGrouped(db, entry('ciappl_j1', 2))];
    // Before the database has said anything, both rows are on disk.
    expect(journalLines(dir).map((line) => (JSON.parse(line) as { upstream_request_id: string }).upstream_request_id)).toEqual(['req_journal1', 'req_journal2']);
    await Promise.all(recorded);
    expect(await requestIds(db, 'ciappl_j1')).toEqual(['req_journal1', 'req_journal2']);
    expect(journalLines(dir)).toEqual([]);
  });

  it('replays a journal left by a stopped process, skipping rows already committed', async () => {
    const { db, dir } = await embedded();
    const committed = auditRowOf(entry('ciappl_j2', 1));
    await insertAuditRows(db, [committed]);
    const lost = auditRowOf(entry('ciappl_j2', 2));
    // Killed mid-write: the last line is cut short.
    writeFileSync(join(dir, AUDIT_JOURNAL_FILE), `${JSON.stringify(committed)}\n${JSON.stringify(lost)}\n{"at":"2026-`);
    const writer = new AuditWriter(db, new AuditJournal(dir));
    await writer.settled();
    expect(await requestIds(db, 'ciappl_j2')).toEqual(['req_journal1', 'req_journal2']);
    expect(journalLines(dir)).toEqual([]);
  });

  it('keeps a row the database refused and writes it once the database takes it', async () => {
    const { db, dir } = await embedded();
    let refusals = 1;
    const flaky: Db = { ...db, kind: db.kind, query: (sql, params) => (refusals-- > 0 ? Promise.reject(new Error('disk full')) : db.query(sql, params)) };
    const writer = new AuditWriter(flaky, new AuditJournal(dir));
    await writer.record(entry('ciappl_j3', 1));
    expect(journalLines(dir)).toHaveLength(1);
    await writer.settled();
    expect(await requestIds(db, 'ciappl_j3')).toEqual(['req_journal1']);
    expect(journalLines(dir)).toEqual([]);
  });
});

describe('an answer write through a BFF on the embedded database', () => {
  it('keeps its audit row when the server is killed right after the reply', async () => {
    const { sandboxBaseUrl } = bffStack();
    const bff = await startBff({ portalBaseUrl: sandboxBaseUrl, portalApiKey: KEYS.full });
    let db: Db | null = null;
    try {
      const [target] = await prepareWriteTargets(sandboxBaseUrl, KEYS.full, 1);
      const r = bffWriteLoad('journal', [target!], bff.url, bff.cookie, 1).next(0);
      const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
      expect(res.status, await res.clone().text()).toBe(200);
      process.kill(-bff.pid!, 'SIGKILL');
      await until(async () => groupAlive(bff.pid!), (alive) => !alive, 'the killed server to be gone');
      // The next process to open the database (here, this test) moves what the journal holds into the table.
      db = await createDb({ dataDir: bff.dataDir });
      const rows = (await listAudit(db, target!.applicationId)).items;
      expect(rows.map((row) => [row.operation, row.outcome, row.upstreamRequestId])).toEqual([
        ['answers.update', 'success', res.headers.get('x-upstream-request-id')],
      ]);
    } finally {
      await db?.close();
      await bff.stop();
    }
  }, 120_000);
});
