import { describe, expect, it } from 'vitest';
import { AnswersPageView, AnswersWriteResult } from '@/lib/bff/applications';
import { WorkspaceBusinessPage } from '@/lib/bff/workspace';
import type { Db } from '@/server/db/types';
import { AnswersActivity } from '@/server/read-model/answers-activity';
import { testDrivers, useTestDb } from '@/tests/support/postgres';
import { poller } from '../support/poller';
import { bffDb, signedIn, type BffClient } from './support/bff';
import { createBusiness } from './support/bff-businesses';

/*
 * Answer writes reach the read model after the reply (server/read-model/answers-activity.ts): merged per
 * application, applied in order, never moving a row back, and waited for by the workspace's reads.
 */

const until = poller({ timeoutMs: 15_000, everyMs: 100 });

async function insertRow(db: Db, id: string, applicationId: string) {
  await db.query('INSERT INTO workspace_businesses (id, name, application_id, answers_revision, last_activity_at) VALUES ($1, $2, $3, 1, $4)', [
    id,
    `Activity ${id}`,
    applicationId,
    new Date('2026-01-01T00:00:00Z'),
  ]);
}

const rowOf = (db: Db, id: string) =>
  db.one<{ answers_revision: number; last_activity_at: Date }>('SELECT answers_revision, last_activity_at FROM workspace_businesses WHERE id = $1', [id]);

describe.each(testDrivers())('answer activity on %s', (driver) => {
  const t = useTestDb(driver);

  it('merges a burst per application into fewer statements and keeps the highest revision and latest time', async () => {
    let statements = 0;
    const db: Db = { ...t.db, kind: t.db.kind, query: (sql, params) => (statements++, t.db.query(sql, params)) };
    await insertRow(t.db, `biz_act${driver}a`, `ciappl_act${driver}a`);
    await insertRow(t.db, `biz_act${driver}b`, `ciappl_act${driver}b`);
    const activity = new AnswersActivity(db);
    const base = Date.parse('2026-02-01T00:00:00Z');
    // Out of order, as concurrent replies may be noted: revision 9 at +9 s is the last word for a.
    for (const n of [3, 9, 5, 2, 7]) activity.note(`ciappl_act${driver}a`, n, new Date(base + n * 1000));
    activity.note(`ciappl_act${driver}b`, 4, new Date(base));
    activity.note(`ciappl_act${driver}b`, null, new Date(base + 1000));
    await activity.settled();
    expect(statements).toBe(1);
    expect(await rowOf(t.db, `biz_act${driver}a`)).toEqual({ answers_revision: 9, last_activity_at: new Date(base + 9000) });
    expect(await rowOf(t.db, `biz_act${driver}b`)).toEqual({ answers_revision: 4, last_activity_at: new Date(base + 1000) });

    // A late, older note (a slow reply) never moves the row back.
    activity.note(`ciappl_act${driver}a`, 6, new Date(base + 6000));
    await activity.settled();
    expect(await rowOf(t.db, `biz_act${driver}a`)).toEqual({ answers_revision: 9, last_activity_at: new Date(base + 9000) });
  });

  it('logs a failed statement and goes on with the next notes', async () => {
    let fail = true;
    const db: Db = {
      ...t.db,
      kind: t.db.kind,
      query: (sql, params) => (fail ? ((fail = false), Promise.reject(new Error('database went away'))) : t.db.query(sql, params)),
    };
    await insertRow(t.db, `biz_actfail${driver}`, `ciappl_actfail${driver}`);
    const activity = new AnswersActivity(db);
    activity.note(`ciappl_actfail${driver}`, 2, new Date('2026-03-01T00:00:00Z'));
    await activity.settled();
    expect((await rowOf(t.db, `biz_actfail${driver}`))?.answers_revision).toBe(1);
    activity.note(`ciappl_actfail${driver}`, 3, new Date('2026-03-01T00:00:01Z'));
    await activity.settled();
    expect((await rowOf(t.db, `biz_actfail${driver}`))?.answers_revision).toBe(3);
  });
});

async function row(client: BffClient, name: string) {
  const r = await client.get(`/api/workspace/businesses?${new URLSearchParams({ q: name })}`);
  expect(r.status, r.text).toBe(200);
  return WorkspaceBusinessPage.parse(r.body).items[0];
}

describe('answer writes through the BFF', () => {
  it('show in the workspace on the very next read, and the row converges to the Portal', async () => {
    const { client } = await signedIn('staff');
    const { created } = await createBusiness(client);
    const name = created.business.name!;
    const app = created.application.id;
    // The first background read of a new business; after it, only answer writes move the row.
    await until(() => row(client, name), (b) => !!b?.stage, 'the first read');
    const page = AnswersPageView.parse((await client.get(`/api/applications/${app}/answers?page_size=500`)).body);
    const text = page.items.find((i) => i.value_type === 'string' && i.allowed_values.length === 0)!;
    const key = { block_key: text.block_key, schema_key: text.schema_key, field_key: text.field_key };

    let etag = page.etag;
    let revision = page.answers_revision;
    const before = Date.now();
    for (const value of ['One', 'Two', 'Three']) {
      const r = await client.patch(`/api/applications/${app}/answers`, { ifMatch: etag, body: { answers_revision: revision, answers: [{ ...key, value }] } });
      expect(r.status, r.text).toBe(200);
      ({ etag, answers_revision: revision } = AnswersWriteResult.parse(r.body));
    }
    // No polling: the workspace read waits for what this instance has noted.
    const seen = await row(client, name);
    expect(Date.parse(seen!.last_activity_at!)).toBeGreaterThanOrEqual(before - 1000);
    const db = await bffDb();
    const stored = () =>
      db.one<{ answers_revision: number; refreshed_at: Date | null }>('SELECT answers_revision, refreshed_at FROM workspace_businesses WHERE application_id = $1', [app]);
    expect((await stored())?.answers_revision).toBe(revision);
    // The one read of the business after the burst lands too, and the row stays at the Portal's revision.
    const refreshed = await until(stored, (r) => !!r?.refreshed_at && r.refreshed_at.getTime() >= before, 'the refresh after the burst');
    expect(refreshed?.answers_revision).toBe(revision);
  });
});
