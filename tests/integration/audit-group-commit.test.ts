import { describe, expect, it } from 'vitest';
import { recordAuditGrouped } from '@/server/audit';
import type { AuditEntry } from '@/server/audit/audit-log';
import type { Db } from '@/server/db/types';
import { testDrivers, useTestDb } from '@/tests/support/postgres';
import { bffWriteLoad, prepareWriteTargets } from '../bench/lib/scenarios';
import { bffDb, bffStack, signedIn } from './support/bff';
import { KEYS } from './support/sandbox';

/*
 * The audit log's group commit (server/audit/audit-batch.ts): concurrent writes share INSERTs, yet each
 * caller learns of success only once its own row is committed, and no row is lost or reordered.
 */

function counting(db: Db) {
  const counter = { statements: 0 };
  const wrapped: Db = { ...db, kind: db.kind, query: (sql, params) => (counter.statements++, db.query(sql, params)) };
  return { db: wrapped, counter };
}

const entry = (app: string, n: number): AuditEntry => ({
  actorKind: 'user',
  actorId: 'usr_grouped',
  actorLabel: 'grouped@example.test',
  operation: 'answers.update',
  objectType: 'client_intake_application',
  objectId: app,
  applicationId: app,
  upstreamRequestId: `req_grouped${n}`,
  outcome: n % 3 === 0 ? 'failure' : 'success',
  status: n % 3 === 0 ? 412 : 200,
  detail: n % 2 === 0 ? { n } : undefined,
});

describe.each(testDrivers())('audit group commit on %s', (driver) => {
  const t = useTestDb(driver);

  it('writes every entry of a burst, in order, in fewer statements, each committed before its caller hears', async () => {
    const { db, counter } = counting(t.db);
    const app = `ciappl_grouped${driver}`;
    const committedWhenResolved: boolean[] = [];
    await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        recordAuditGrouped(db, entry(app, n)).then(async () => {
          const row = await t.db.one('SELECT id FROM audit_log WHERE upstream_request_id = $1', [`req_grouped${n}`]);
          committedWhenResolved.push(row !== null);
        }),
      ),
    );
    expect(committedWhenResolved).toEqual(Array(40).fill(true));
    expect(counter.statements, 'a burst shares statements').toBeLessThan(40);
    const rows = await t.db.query<{ upstream_request_id: string; outcome: string; status: number; detail: unknown }>(
      'SELECT upstream_request_id, outcome, status, detail FROM audit_log WHERE application_id = $1 ORDER BY id',
      [app],
    );
    expect(rows.map((r) => r.upstream_request_id)).toEqual(Array.from({ length: 40 }, (_, n) => `req_grouped${n}`));
    expect(rows[3]).toMatchObject({ outcome: 'failure', status: 412, detail: null });
    expect(rows[4]).toMatchObject({ outcome: 'success', status: 200, detail: { n: 4 } });
  });

  it('fails every caller of a statement that fails, and goes on with the next', async () => {
    const bad = { ...entry('ciappl_bad', 1), actorKind: 'nobody' as AuditEntry['actorKind'] };
    const results = await Promise.allSettled([recordAuditGrouped(t.db, entry('ciappl_ok', 1)), recordAuditGrouped(t.db, bad)]);
    // The first goes alone (nothing in flight); the second, queued behind it, is refused by the CHECK.
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    await recordAuditGrouped(t.db, entry('ciappl_after', 2));
    expect(await t.db.one('SELECT id FROM audit_log WHERE application_id = $1', ['ciappl_after'])).not.toBeNull();
  });
});

describe('through the BFF', () => {
  it('has each concurrent write’s audit row stored by the time its reply arrives', async () => {
    const { client } = await signedIn('staff');
    const { url, sandboxBaseUrl } = bffStack();
    const targets = await prepareWriteTargets(sandboxBaseUrl, KEYS.full, 12);
    const load = bffWriteLoad('audit', targets, url, client.cookieHeader(), 1);
    const db = await bffDb();
    const found = await Promise.all(
      targets.map(async (_, w) => {
        const r = load.next(w);
        const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
        expect(res.status, await res.clone().text()).toBe(200);
        const requestId = res.headers.get('x-upstream-request-id');
        return db.one('SELECT operation, outcome FROM audit_log WHERE upstream_request_id = $1', [requestId]);
      }),
    );
    for (const row of found) expect(row).toMatchObject({ outcome: 'success' });
  });
});
