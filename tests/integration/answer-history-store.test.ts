import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@/server/db';
import type { Db } from '@/server/db/types';
import type { Actor, FieldValue, HistoryEvent } from '@/server/history/history-events';
import { applicationHistory, applyEvents, fieldHistory, pruneHistory } from '@/server/history/history-store';
import { applicationTimeline } from '@/server/history/timeline';
import { noteAnswersWritten } from '@/server/history/history-recorder';
import { drainAll } from '@/server/lifecycle/drain';
import { startJobQueue } from '@/server/messages/job-queue';
import { queueMessages } from '@/server/messages/outbox';

/* How history decides who changed what, on the embedded database: one application per test. */

let db: Db;
beforeAll(async () => {
  db = await createDb({ dataDir: null });
});
afterAll(() => db.close());

let n = 0;
const newApp = () => `app_history_${++n}`;
const staff: Actor = { kind: 'staff', name: 'Sam Staff' };
const client: Actor = { kind: 'client', name: null };
const outside: Actor = { kind: 'outside', name: null };
const name = (value: unknown, item_id: string | null = null): FieldValue => ({ schema_key: 'legal_name', field_key: 'value', item_id, value });
const write = (app: string, revision: number, actor: Actor, ...answers: FieldValue[]): HistoryEvent => ({ kind: 'write', applicationId: app, revision, actor, answers });
const read = (app: string, revision: number, ...answers: FieldValue[]): HistoryEvent => ({ kind: 'observe', applicationId: app, revision, actor: outside, answers });
const historyOf = async (app: string, itemId: string | null = null) =>
  (await fieldHistory(db, app, { schema_key: 'legal_name', field_key: 'value', item_id: itemId }, 50, null)).map((e) => ({
    old: e.old_known ? e.old_value : '?',
    new: e.new_value,
    by: e.actor_kind,
    name: e.actor_name,
    revision: e.revision,
  }));

describe('answer history', () => {
  it('a first read is where history starts; writes record old → new and who; a newer read with another value was outside the app', async () => {
    const app = newApp();
    await applyEvents(db, app, [read(app, 1, name('Old Ltd'))]);
    expect(await historyOf(app)).toEqual([]);
    await applyEvents(db, app, [write(app, 2, staff, name('New Ltd')), write(app, 3, client, name('Newer Ltd'))]);
    await applyEvents(db, app, [read(app, 4, name('Outside Ltd'))]);
    expect(await historyOf(app)).toEqual([
      { old: 'Newer Ltd', new: 'Outside Ltd', by: 'outside', name: null, revision: 4 },
      { old: 'New Ltd', new: 'Newer Ltd', by: 'client', name: null, revision: 3 },
      { old: 'Old Ltd', new: 'New Ltd', by: 'staff', name: 'Sam Staff', revision: 2 },
    ]);
  });

  it('a read older than what is known says nothing, and a write of the same value is not a change', async () => {
    const app = newApp();
    await applyEvents(db, app, [read(app, 1, name('A')), write(app, 2, staff, name('B'))]);
    await applyEvents(db, app, [read(app, 1, name('A')), write(app, 3, staff, name('B'))]);
    expect(await historyOf(app)).toEqual([{ old: 'A', new: 'B', by: 'staff', name: 'Sam Staff', revision: 2 }]);
  });

  it('our own write noted after a read that already saw it is ours, not outside', async () => {
    const app = newApp();
    await applyEvents(db, app, [read(app, 1, name('A'))]);
    await applyEvents(db, app, [read(app, 2, name('B'))]);
    expect((await historyOf(app))[0]).toMatchObject({ by: 'outside' });
    await applyEvents(db, app, [write(app, 2, staff, name('B'))]);
    expect(await historyOf(app)).toEqual([{ old: 'A', new: 'B', by: 'staff', name: 'Sam Staff', revision: 2 }]);
  });

  it('a field never seen: its earlier value is unknown, unless the writer knew it', async () => {
    const app = newApp();
    await applyEvents(db, app, [write(app, 5, staff, name('X'))]);
    await applyEvents(db, app, [write(app, 6, { kind: 'autofill', name: 'Rita Reviewer' }, { ...name('Y', 'item_1'), previous: null })]);
    expect(await historyOf(app)).toEqual([{ old: '?', new: 'X', by: 'staff', name: 'Sam Staff', revision: 5 }]);
    expect(await historyOf(app, 'item_1')).toEqual([{ old: null, new: 'Y', by: 'autofill', name: 'Rita Reviewer', revision: 6 }]);
    // The application's history holds both, newest first, and pages back by id.
    const all = await applicationHistory(db, app, 1, null);
    expect(all.map((e) => e.item_id)).toEqual(['item_1']);
    expect((await applicationHistory(db, app, 5, all[0]!.id)).map((e) => e.new_value)).toEqual(['X']);
  });

  it('arrays and numbers compare by value', async () => {
    const app = newApp();
    const tags = (value: unknown): FieldValue => ({ schema_key: 'tags', field_key: 'value', item_id: null, value });
    await applyEvents(db, app, [read(app, 1, tags(['a', 'b'])), write(app, 2, staff, tags(['a', 'b'])), write(app, 3, staff, tags(['b', 'a']))]);
    const entries = await fieldHistory(db, app, { schema_key: 'tags', field_key: 'value', item_id: null }, 10, null);
    expect(entries.map((e) => [e.old_value, e.new_value])).toEqual([[['a', 'b'], ['b', 'a']]]);
  });

  it('removes changes older than the retention, and keeps comparing with the known value', async () => {
    const app = newApp();
    await applyEvents(db, app, [read(app, 1, name('A')), write(app, 2, staff, name('B')), write(app, 3, staff, name('C'))]);
    await db.query(`UPDATE answer_history SET at = now() - interval '40 days' WHERE application_id = $1 AND revision = 2`, [app]);
    expect(await pruneHistory(db, 30)).toBeGreaterThanOrEqual(1);
    expect((await historyOf(app)).map((e) => e.new)).toEqual(['C']);
    await applyEvents(db, app, [read(app, 4, name('D'))]);
    expect((await historyOf(app))[0]).toMatchObject({ old: 'C', new: 'D', by: 'outside' });
  });

  it('a timeline pages back in time on the embedded database', async () => {
    const app = newApp();
    await applyEvents(db, app, [read(app, 1, name('A')), write(app, 2, staff, name('B'))]);
    await applyEvents(db, app, [write(app, 3, client, name('C'))]);
    const first = await applicationTimeline(db, app, 1, null);
    expect(first.events).toEqual([expect.objectContaining({ kind: 'answer', new_value: 'C', by: client })]);
    expect(first.nextBefore).toEqual(first.events[0]!.at);
    const older = await applicationTimeline(db, app, 5, first.nextBefore);
    expect(older).toEqual({ events: [expect.objectContaining({ kind: 'answer', new_value: 'B', by: staff })], nextBefore: null });
  });

  it('a reminder queued as its template’s input (no bodies yet) is in the timeline under its subject', async () => {
    const app = newApp();
    const boss = await startJobQueue(db, 1);
    try {
      const input = {
        clientName: 'Riley',
        inviterName: 'Sam Staff',
        businessName: 'Timeline Ltd',
        progressPercent: 40,
        sectionsLeft: [],
        documentsLeft: [],
        opened: true,
        dueText: null,
        overdue: false,
        link: 'https://app.example.test/invite/t',
        unsubscribeUrl: 'https://app.example.test/api/unsubscribe/u',
      };
      await db.transaction((tx) =>
        queueMessages(tx, boss, [
          { template: 'reminder', recipient: 'riley@example.test', recipientName: 'Riley', mail: { template: 'reminder', input }, applicationId: app, invitationId: null, createdBy: null },
        ]),
      );
      expect(await db.one('SELECT subject, text_body FROM outbox WHERE application_id = $1', [app])).toEqual({ subject: null, text_body: null });
      const { events } = await applicationTimeline(db, app, 10, null);
      expect(events).toEqual([expect.objectContaining({ kind: 'mail', to: 'riley@example.test', subject: 'Reminder: your application for Timeline Ltd', status: 'queued' })]);
    } finally {
      await boss.stop({ graceful: false, wait: true, close: false });
    }
  });

  it('a stopping instance writes the changes it has noted (the drain waits for them)', async () => {
    const app = newApp();
    noteAnswersWritten(db, app, 1, [name('Noted Ltd')], staff);
    await drainAll(5_000);
    expect(await historyOf(app)).toEqual([{ old: '?', new: 'Noted Ltd', by: 'staff', name: 'Sam Staff', revision: 1 }]);
  });
});
