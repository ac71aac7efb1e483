import { describe, expect, it } from 'vitest';
import type { Actor, HistoryEvent } from '@/server/history/history-events';
import { applyEvents, fieldHistory } from '@/server/history/history-store';
import { testDrivers, useTestDb } from '@/tests/support/postgres';

/*
 * Two instances applying events of one application at once take turns: each batch reads the known values only
 * after the other's has committed. Were they to overlap, both would find a field unknown and each record a
 * change "from an unknown value".
 */

const staff: Actor = { kind: 'staff', name: 'Sam Staff' };
const write = (app: string, revision: number, value: string): HistoryEvent => ({
  kind: 'write',
  applicationId: app,
  revision,
  actor: staff,
  answers: [{ schema_key: 'legal_name', field_key: 'value', item_id: null, value }],
});

describe.each(testDrivers())('answer history batches on %s', (driver) => {
  const t = useTestDb(driver);

  it('of one application, applied at once from two connections, take turns', async () => {
    for (let round = 0; round < 20; round++) {
      const app = `app_turns_${driver}_${round}`;
      await Promise.all([applyEvents(t.db, app, [write(app, 2, 'First Ltd')]), applyEvents(t.db, app, [write(app, 3, 'Second Ltd')])]);
      const changes = await fieldHistory(t.db, app, { schema_key: 'legal_name', field_key: 'value', item_id: null }, 50, null);
      // One batch found the field unknown; the other, after it, either recorded the change or was older.
      expect(changes.filter((c) => !c.old_known), `round ${round}`).toHaveLength(1);
      expect(changes[0]!.new_value).toBe('Second Ltd');
    }
  });
});
