import { describe, expect, it } from 'vitest';
import {
  autosaveMachine,
  equalityFor,
  formModel,
  itemName,
  sendableCheck,
  type AutosaveState,
  type FormValues,
  type WriteBatch,
} from '@/lib/forms';
import { mulberry32 } from '@/server/sandbox/controls/faults';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';

const A = 'a.legal_name.legal_name.value';
const B = 'a.trading_name.trading_name.value';
const AMOUNT = 'a.funding_amount.funding_amount.value';
const ITEM_1 = itemName('ritem_1', 'owner_full_name', 'value');
const ITEM_2 = itemName('ritem_2', 'owner_full_name', 'value');

const machine = autosaveMachine({ debounceMs: 500, maxWaitMs: 2_000, retryDelaysMs: [1_000, 4_000] });
const start = (values: FormValues = { [A]: 'Old', [B]: '' }) => machine.init({ values, answersRevision: 3, etag: '"e3"' });

/** Ticks and expects a write; returns the state and the batch. */
function send(state: AutosaveState, now: number): [AutosaveState, WriteBatch] {
  const r = machine.tick(state, now);
  if (r.send === null) throw new Error(`nothing sent at ${now} (wakeAt ${r.wakeAt})`);
  return [r.state, r.send];
}

describe('debounce and bursts', () => {
  it('starts idle, saves a burst after the quiet time, then says saved', () => {
    let s = start();
    expect(s.status).toBe('idle');
    s = machine.edit(s, A, 'N', 0);
    s = machine.edit(s, A, 'Ne', 100);
    s = machine.edit(s, B, 'Trading', 200);
    expect(s.status).toBe('saving');
    const waiting = machine.tick(s, 300);
    expect(waiting.send).toBeNull();
    expect(waiting.wakeAt).toBe(700);
    const [sending, batch] = send(s, 700);
    expect(batch).toEqual({ id: 1, target: { kind: 'answers' }, edits: { [A]: 'Ne', [B]: 'Trading' }, answersRevision: 3, etag: '"e3"' });
    expect(sending.status).toBe('saving');
    expect(sending.pending).toEqual({});
    const saved = machine.onSuccess(sending, batch.id, { answersRevision: 4, etag: '"e4"' });
    expect(saved.status).toBe('saved');
    expect(saved.server[A]).toBe('Ne');
    expect(saved.answersRevision).toBe(4);
    expect(machine.tick(saved, 800)).toEqual({ state: saved, send: null, wakeAt: null });
  });

  it('does not wait past max wait while the person keeps typing', () => {
    let s = start();
    for (let t = 0; t <= 2_000; t += 200) s = machine.edit(s, A, `v${t}`, t);
    const r = machine.tick(s, 2_000);
    expect(r.send?.edits).toEqual({ [A]: 'v2000' });
  });

  it('keeps at most one write in flight; edits made meanwhile go next, with the new revision', () => {
    let s = machine.edit(start(), A, 'first', 0);
    const [sent, batch] = send(s, 500);
    s = sent;
    s = machine.edit(s, A, 'second', 600);
    expect(machine.tick(s, 5_000).send).toBeNull();
    s = machine.onSuccess(s, batch.id, { answersRevision: 4, etag: '"e4"' });
    expect(s.status).toBe('saving');
    const [, next] = send(s, 5_000);
    expect(next).toMatchObject({ id: 2, edits: { [A]: 'second' }, answersRevision: 4, etag: '"e4"' });
  });

  it('sends one target per write: answers first, then each item', () => {
    let s = start();
    s = machine.edit(s, ITEM_1, 'Alex', 0);
    s = machine.edit(s, A, 'New', 10);
    s = machine.edit(s, ITEM_2, 'Sam', 20);
    s = machine.edit(s, itemName('ritem_1', 'owner_email', 'value'), 'a@b.example', 30);
    let batch: WriteBatch;
    [s, batch] = send(s, 600);
    expect(batch.target).toEqual({ kind: 'answers' });
    s = machine.onSuccess(s, batch.id, { answersRevision: 4, etag: '"e4"' });
    // The rest of the burst follows at once.
    [s, batch] = send(s, 601);
    expect(batch.target).toEqual({ kind: 'item', itemId: 'ritem_1' });
    expect(Object.keys(batch.edits)).toEqual([ITEM_1, itemName('ritem_1', 'owner_email', 'value')]);
    s = machine.onSuccess(s, batch.id, { answersRevision: 5, etag: '"e5"' });
    [s, batch] = send(s, 602);
    expect(batch).toMatchObject({ target: { kind: 'item', itemId: 'ritem_2' }, answersRevision: 5 });
    s = machine.onSuccess(s, batch.id, { answersRevision: 6, etag: '"e6"' });
    expect(s.status).toBe('saved');
  });

  it('an edit back to the saved value needs no write', () => {
    let s = machine.edit(start(), A, 'Changed', 0);
    s = machine.edit(s, A, 'Old', 100);
    expect(s.pending).toEqual({});
    expect(machine.tick(s, 1_000).send).toBeNull();
  });

  it('but going back while a different value is in flight is sent, so the upstream ends where the person did', () => {
    let s = machine.edit(start(), A, 'Changed', 0);
    let batch: WriteBatch;
    [s, batch] = send(s, 500);
    s = machine.edit(s, A, 'Old', 600);
    s = machine.onSuccess(s, batch.id, { answersRevision: 4, etag: '"e4"' });
    [, batch] = send(s, 1_200);
    expect(batch.edits).toEqual({ [A]: 'Old' });
  });
});

describe('field-aware options', () => {
  const model = formModel(buildFundingContract());
  const fieldAware = autosaveMachine({ equal: equalityFor(model), canSend: sendableCheck(model), debounceMs: 100 });

  it('holds invalid input (kept, not sent) and sends the rest', () => {
    let s = fieldAware.init({ values: { [AMOUNT]: '', [A]: '' }, answersRevision: 1, etag: '"e1"' });
    s = fieldAware.edit(s, AMOUNT, '12abc', 0);
    s = fieldAware.edit(s, A, 'Meridian', 0);
    const r = fieldAware.tick(s, 100);
    expect(r.send?.edits).toEqual({ [A]: 'Meridian' });
    const saved = fieldAware.onSuccess(r.state, r.send?.id ?? 0, { answersRevision: 2, etag: '"e2"' });
    expect(saved.pending).toEqual({ [AMOUNT]: '12abc' });
    expect(fieldAware.unsavedNames(saved)).toEqual([AMOUNT]);
    expect(fieldAware.persist(saved).edits).toEqual({ [AMOUNT]: '12abc' });
    // Fixing it sends it.
    const fixed = fieldAware.edit(saved, AMOUNT, '12', 200);
    expect(fieldAware.tick(fixed, 300).send?.edits).toEqual({ [AMOUNT]: '12' });
  });

  it('retyping the saved number differently is not a change', () => {
    let s = fieldAware.init({ values: { [AMOUNT]: '1,234.5' }, answersRevision: 1, etag: '"e1"' });
    s = fieldAware.edit(s, AMOUNT, '1234.50', 0);
    expect(s.pending).toEqual({});
  });
});

describe('412: three-way merge with the upstream now', () => {
  it('re-sends my changes with the new revision, takes theirs silently, keeps conflicts for the person', () => {
    let s = start({ [A]: 'Old', [B]: 'OldB', [AMOUNT]: '' });
    s = machine.edit(s, A, 'Mine', 0);
    s = machine.edit(s, AMOUNT, '500', 0);
    const [sent, batch] = send(s, 500);
    s = sent;
    s = machine.edit(s, B, 'MineB', 600); // typed while the write was out
    s = machine.onConflict(s, batch.id, {
      values: { [A]: 'Theirs', [B]: 'OldB', [AMOUNT]: '', 'a.x.x.value': 'their new field' },
      answersRevision: 9,
      etag: '"e9"',
    });
    expect(s.conflicts).toEqual([{ name: A, base: 'Old', mine: 'Mine', theirs: 'Theirs' }]);
    expect(s.theirsApplied).toEqual([{ name: 'a.x.x.value', base: null, theirs: 'their new field' }]);
    expect(s.pending).toEqual({ [AMOUNT]: '500', [B]: 'MineB' });
    expect(s.server[A]).toBe('Theirs');
    expect(s.inFlight).toBeNull();
    // Re-sent at once, without waiting for the debounce, with the new revision.
    const [after, resent] = send(s, 601);
    expect(resent).toMatchObject({ edits: { [AMOUNT]: '500', [B]: 'MineB' }, answersRevision: 9, etag: '"e9"' });
    expect(machine.acknowledgeTheirs(after).theirsApplied).toEqual([]);
  });

  it('a conflict is not sent until resolved; then mine, theirs or a new value', () => {
    let s = machine.edit(start(), A, 'Mine', 0);
    const [sent, batch] = send(s, 500);
    s = sent;
    s = machine.onConflict(s, batch.id, { values: { [A]: 'Theirs', [B]: '' }, answersRevision: 9, etag: '"e9"' });
    expect(machine.tick(s, 10_000).send).toBeNull();
    // Typing on keeps the conflict open, with the newest of mine.
    s = machine.edit(s, A, 'Mine, more', 700);
    expect(s.conflicts[0]?.mine).toBe('Mine, more');
    expect(machine.persist(s).conflicts).toEqual([{ name: A, base: 'Old', mine: 'Mine, more', theirs: 'Theirs' }]);

    const kept = machine.resolve(s, A, 'mine');
    expect(kept.conflicts).toEqual([]);
    expect(send(kept, 701)[1].edits).toEqual({ [A]: 'Mine, more' });

    const taken = machine.resolve(s, A, 'theirs');
    expect(taken.pending).toEqual({});
    expect(taken.status).toBe('saved');

    const other = machine.resolve(s, A, { value: 'Both' });
    expect(send(other, 701)[1].edits).toEqual({ [A]: 'Both' });
  });

  it('a later 412 does not settle an open conflict behind the person’s back', () => {
    let s = machine.edit(start(), A, 'Mine', 0);
    let batch: WriteBatch;
    [s, batch] = send(s, 500);
    s = machine.onConflict(s, batch.id, { values: { [A]: 'Theirs', [B]: '' }, answersRevision: 9, etag: '"e9"' });
    s = machine.edit(s, B, 'b', 600);
    [s, batch] = send(s, 1_200);
    s = machine.onConflict(s, batch.id, { values: { [A]: 'Theirs again', [B]: '' }, answersRevision: 10, etag: '"e10"' });
    expect(s.conflicts).toEqual([{ name: A, base: 'Old', mine: 'Mine', theirs: 'Theirs again' }]);
    expect(s.pending).toEqual({ [B]: 'b' });
  });

  it('an item 412 merges only the names it covers', () => {
    let s = start({ [A]: 'Old', [ITEM_1]: 'Alex' });
    s = machine.edit(s, ITEM_1, 'Alexandra', 0);
    s = machine.edit(s, A, 'Mine', 0);
    let batch: WriteBatch;
    [s, batch] = send(s, 500);
    s = machine.onSuccess(s, batch.id, { answersRevision: 4, etag: '"e4"' });
    [s, batch] = send(s, 501);
    expect(batch.target).toEqual({ kind: 'item', itemId: 'ritem_1' });
    s = machine.onConflict(s, batch.id, { values: { [ITEM_1]: 'Alex', [ITEM_2]: 'Sam' }, answersRevision: 7, etag: '"e7"' });
    expect(s.pending).toEqual({ [ITEM_1]: 'Alexandra' });
    expect(s.server[A]).toBe('Mine');
    expect(s.theirsApplied.map((t) => t.name)).toEqual([ITEM_2]);
  });

  it('ignores the outcome of a write that is no longer in flight', () => {
    const s = machine.edit(start(), A, 'x', 0);
    expect(machine.onSuccess(s, 42, { answersRevision: 8, etag: '"e8"' })).toBe(s);
    expect(machine.onConflict(s, 42, { values: {}, answersRevision: 8, etag: '"e8"' })).toBe(s);
  });
});

describe('failures: offline, retries, refusals', () => {
  it('offline keeps every edit (the one in flight too) and sends them when back online', () => {
    let s = machine.edit(start(), A, 'Mine', 0);
    const [sent, batch] = send(s, 500);
    s = sent;
    s = machine.onOffline(s);
    expect(s.status).toBe('offline');
    expect(s.inFlight).toBeNull();
    s = machine.edit(s, B, 'More', 600);
    expect(s.pending).toEqual({ [A]: 'Mine', [B]: 'More' });
    expect(machine.tick(s, 10_000).send).toBeNull();
    // The reply to the lost request, should it still arrive, changes nothing.
    expect(machine.onSuccess(s, batch.id, { answersRevision: 4, etag: '"e4"' })).toBe(s);
    s = machine.onOnline(s);
    expect(s.status).toBe('saving');
    expect(send(s, 601)[1].edits).toEqual({ [A]: 'Mine', [B]: 'More' });
  });

  it('a write whose reply was lost may have been saved: the merge finds out from the upstream', () => {
    // "x" is sent, the person clears the field again (back to what the upstream held), the connection drops.
    let s = start({ [A]: '' });
    s = machine.edit(s, A, 'x', 0);
    const [sent, batch] = send(s, 500);
    s = machine.edit(sent, A, '', 600);
    s = machine.onOffline(s);
    expect(s.uncertain).toEqual({ [A]: 'x' });
    s = machine.onOnline(s);
    const [resending, again] = send(s, 700);
    expect(again.edits).toEqual({ [A]: '' });
    // The lost write had gone through: the upstream moved on and shows "x".
    s = machine.onConflict(resending, again.id, { values: { [A]: 'x' }, answersRevision: 4, etag: '"e4"' });
    expect(s.theirsApplied).toEqual([]);
    expect(s.conflicts).toEqual([]);
    expect(send(s, 701)[1]).toMatchObject({ edits: { [A]: '' }, answersRevision: 4 });
    expect(batch.edits).toEqual({ [A]: 'x' });
  });

  it('a lost write that did not go through changes nothing', () => {
    let s = start({ [A]: '' });
    s = machine.edit(s, A, 'x', 0);
    const [sent, batch] = send(s, 500);
    s = machine.onError(sent, batch.id, 'Gateway timeout', 600);
    s = machine.edit(s, A, '', 700);
    // Someone else wrote meanwhile, but not this field.
    const [resending, again] = send(machine.retry(s), 800);
    s = machine.onConflict(resending, again.id, { values: { [A]: '', [B]: 'theirs' }, answersRevision: 5, etag: '"e5"' });
    expect(s.pending).toEqual({});
    expect(s.uncertain).toEqual({});
    expect(s.theirsApplied.map((t) => t.name)).toEqual([B]);
  });

  it('a reload treats the write in flight as possibly saved', () => {
    let s = start({ [A]: '' });
    s = machine.edit(s, A, 'x', 0);
    [s] = send(s, 500);
    s = machine.edit(s, A, '', 600);
    const saved = machine.persist(s);
    expect(saved.uncertain).toEqual({ [A]: 'x' });
    const restored = machine.restore(saved, { values: { [A]: 'x' }, answersRevision: 4, etag: '"e4"' });
    expect(restored.pending).toEqual({ [A]: '' });
    expect(restored.theirsApplied).toEqual([]);
  });

  it('retries a failed write after a back-off, or at once on request', () => {
    let s = machine.edit(start(), A, 'Mine', 0);
    let batch: WriteBatch;
    [s, batch] = send(s, 500);
    s = machine.onError(s, batch.id, 'Bad gateway', 600);
    expect(s.status).toBe('error');
    expect(s.lastError).toBe('Bad gateway');
    expect(s.pending).toEqual({ [A]: 'Mine' });
    expect(machine.tick(s, 1_000)).toMatchObject({ send: null, wakeAt: 1_600 });
    [s, batch] = send(s, 1_600);
    expect(s.status).toBe('saving');
    s = machine.onError(s, batch.id, 'Bad gateway', 1_700);
    expect(s.retryAt).toBe(5_700); // the second delay
    s = machine.retry(s);
    [s, batch] = send(s, 1_800);
    s = machine.onSuccess(s, batch.id, { answersRevision: 4, etag: '"e4"' });
    expect(s).toMatchObject({ status: 'saved', attempt: 0, lastError: null });
  });

  it('a 422 holds the refused fields until they are edited, and re-sends the rest', () => {
    let s = machine.edit(start(), A, 'Bad', 0);
    s = machine.edit(s, B, 'Fine', 0);
    let batch: WriteBatch;
    [s, batch] = send(s, 500);
    s = machine.onRejected(s, batch.id, { [A]: 'Must be at least 5 characters' });
    expect(s.rejected).toEqual({ [A]: 'Must be at least 5 characters' });
    [s, batch] = send(s, 501);
    expect(batch.edits).toEqual({ [B]: 'Fine' });
    s = machine.onSuccess(s, batch.id, { answersRevision: 4, etag: '"e4"' });
    expect(machine.tick(s, 10_000).send).toBeNull();
    expect(s.pending).toEqual({ [A]: 'Bad' });
    s = machine.edit(s, A, 'Better', 20_000);
    expect(s.rejected).toEqual({});
    expect(send(s, 20_500)[1].edits).toEqual({ [A]: 'Better' });
  });

  it('edits to an item someone deleted are kept aside, never sent', () => {
    let s = machine.edit(start(), ITEM_1, 'Alexandra', 0);
    const [sent, batch] = send(s, 500);
    s = sent;
    s = machine.onItemGone(s, 'ritem_1');
    expect(s.inFlight).toBeNull();
    expect(s.orphaned).toEqual({ [ITEM_1]: 'Alexandra' });
    expect(machine.tick(s, 10_000).send).toBeNull();
    expect(machine.persist(s).orphaned).toEqual({ [ITEM_1]: 'Alexandra' });
    expect(machine.dismissOrphaned(s).orphaned).toEqual({});
    expect(batch.target).toEqual({ kind: 'item', itemId: 'ritem_1' });
  });

  it('deleting an item drops its unsent edits (the person chose to)', () => {
    let s = machine.edit(start(), ITEM_1, 'x', 0);
    s = machine.edit(s, A, 'y', 0);
    s = machine.forgetItem(s, 'ritem_1');
    expect(s.pending).toEqual({ [A]: 'y' });
  });
});

describe('persist and restore across a reload', () => {
  it('is plain JSON', () => {
    let s = machine.edit(start(), A, 'Mine', 0);
    [s] = send(s, 500);
    s = machine.edit(s, B, 'More', 600);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(JSON.parse(JSON.stringify(machine.persist(s)))).toEqual(machine.persist(s));
  });

  it('restores edits in flight and pending at the same revision, and sends them', () => {
    let s = machine.edit(start(), A, 'Mine', 0);
    [s] = send(s, 500);
    s = machine.edit(s, B, 'More', 600);
    const saved = JSON.parse(JSON.stringify(machine.persist(s)));
    const restored = machine.restore(saved, { values: { [A]: 'Old', [B]: '' }, answersRevision: 3, etag: '"e3"' });
    expect(restored.pending).toEqual({ [A]: 'Mine', [B]: 'More' });
    expect(restored.status).toBe('saving');
    expect(send(restored, 0)[1]).toMatchObject({ edits: { [A]: 'Mine', [B]: 'More' }, answersRevision: 3 });
  });

  it('merges restored edits with what changed upstream since', () => {
    let s = start({ [A]: 'Old', [B]: 'OldB', [AMOUNT]: '1' });
    s = machine.edit(s, A, 'Mine', 0);
    s = machine.edit(s, B, 'MineB', 0);
    const saved = machine.persist(s);
    const restored = machine.restore(saved, {
      values: { [A]: 'Theirs', [B]: 'OldB', [AMOUNT]: '2' },
      answersRevision: 8,
      etag: '"e8"',
    });
    expect(restored.pending).toEqual({ [B]: 'MineB' });
    expect(restored.conflicts).toEqual([{ name: A, base: 'Old', mine: 'Mine', theirs: 'Theirs' }]);
    expect(restored.answersRevision).toBe(8);
    expect(restored.server[AMOUNT]).toBe('2');
  });

  it('an edit the upstream already has is not sent again', () => {
    let s = machine.edit(start(), A, 'Mine', 0);
    [s] = send(s, 500); // the reply was lost with the page
    const restored = machine.restore(machine.persist(s), { values: { [A]: 'Mine', [B]: '' }, answersRevision: 4, etag: '"e4"' });
    expect(restored.pending).toEqual({});
    expect(restored.conflicts).toEqual([]);
  });
});

describe('refresh: a fresh read while editing', () => {
  it('merges like a 412 and leaves the write in flight to its own reply', () => {
    let s = machine.edit(start(), A, 'Mine', 0);
    const [sent, batch] = send(s, 500);
    s = sent;
    s = machine.edit(s, B, 'typing', 600);
    s = machine.refresh(s, { values: { [A]: 'Old', [B]: 'Autofilled', [AMOUNT]: '7' }, answersRevision: 5, etag: '"e5"' });
    expect(s.inFlight?.id).toBe(batch.id);
    expect(s.conflicts.map((c) => c.name)).toEqual([B]);
    expect(s.theirsApplied.map((t) => t.name)).toEqual([AMOUNT]);
    expect(s.answersRevision).toBe(3);
  });
});

describe('property: a person’s typing survives any sequence of saves, conflicts, failures and reloads', () => {
  const NAMES = [A, B, 'a.q3.q3.value', 'a.q4.q4.value', ITEM_1, ITEM_2];
  const POOL = [null, '', 'x', 'y', 'z', 'w'] as const;

  /** What the state says the person should see for a name. */
  const shown = (s: AutosaveState, name: string) => {
    const conflict = s.conflicts.find((c) => c.name === name);
    if (conflict !== undefined) return conflict.mine;
    if (Object.hasOwn(s.pending, name)) return s.pending[name];
    if (s.inFlight !== null && Object.hasOwn(s.inFlight.edits, name)) return s.inFlight.edits[name];
    return s.server[name] ?? null;
  };
  const same = (a: FormValues[string] | undefined, b: FormValues[string] | undefined) => (a ?? '') === (b ?? '');

  it.each(Array.from({ length: 200 }, (_, i) => i + 1))('seed %i', (seed) => {
    const random = mulberry32(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const m = autosaveMachine({ debounceMs: 300, maxWaitMs: 1_000, retryDelaysMs: [500] });
    const upstream = { values: Object.fromEntries(NAMES.map((n) => [n, pick(POOL)])) as Record<string, FormValues[string]>, revision: 1 };
    const current = () => ({ values: { ...upstream.values }, answersRevision: upstream.revision, etag: `"e${upstream.revision}"` });
    let s = m.init(current());
    let display: Record<string, FormValues[string]> = { ...upstream.values };
    let request: WriteBatch | null = null;
    let offline = false;
    let now = 0;

    const applyTheirs = () => {
      for (const t of s.theirsApplied) display[t.name] = t.theirs;
      s = m.acknowledgeTheirs(s);
    };
    const complete = (failures: boolean) => {
      if (request === null) return;
      const batch = request;
      request = null;
      // A write whose reply is lost (connection gone, 5xx) may still have been saved.
      const maybeSaved = () => {
        if (batch.answersRevision !== upstream.revision || random() < 0.5) return;
        Object.assign(upstream.values, batch.edits);
        upstream.revision += 1;
      };
      if (offline) {
        maybeSaved();
        s = m.onOffline(s);
      } else if (batch.answersRevision !== upstream.revision) s = m.onConflict(s, batch.id, current());
      else if (failures && random() < 0.15) {
        maybeSaved();
        s = m.onError(s, batch.id, 'Bad gateway', now);
      } else {
        Object.assign(upstream.values, batch.edits);
        upstream.revision += 1;
        s = m.onSuccess(s, batch.id, { answersRevision: upstream.revision, etag: `"e${upstream.revision}"` });
      }
      applyTheirs();
    };

    for (let step = 0; step < 120; step++) {
      const op = random();
      if (op < 0.35) {
        const name = pick(NAMES);
        const value = pick(POOL);
        display[name] = value;
        s = m.edit(s, name, value, now);
      } else if (op < 0.55) {
        now += Math.floor(random() * 1_500);
        const r = m.tick(s, now);
        s = r.state;
        if (r.send !== null) request = r.send;
      } else if (op < 0.7) {
        complete(true);
      } else if (op < 0.8) {
        // Someone else saves.
        upstream.values[pick(NAMES)] = pick(POOL);
        upstream.revision += 1;
      } else if (op < 0.85) {
        offline = !offline;
        s = offline ? m.onOffline(s) : m.onOnline(s);
      } else if (op < 0.9 && s.conflicts.length > 0) {
        const conflict = pick(s.conflicts);
        const choice = pick(['mine', 'theirs', { value: 'merged by hand' }] as const);
        display[conflict.name] = choice === 'mine' ? conflict.mine : choice === 'theirs' ? conflict.theirs : choice.value;
        s = m.resolve(s, conflict.name, choice);
      } else if (op < 0.95) {
        s = m.refresh(s, current());
        applyTheirs();
      } else {
        // A reload: the request may or may not have reached the upstream; its reply is lost either way.
        if (request !== null && !offline && request.answersRevision === upstream.revision && random() < 0.5) {
          Object.assign(upstream.values, request.edits);
          upstream.revision += 1;
        }
        request = null;
        const saved = JSON.parse(JSON.stringify(m.persist(s)));
        s = m.restore(saved, current());
        if (offline) s = m.onOffline(s);
        for (const name of Object.keys(saved.edits)) {
          // Kept as shown, unless the person's net change was none (back to the base) and someone else's
          // value came in instead, as a listed change.
          const netUnchanged = same(display[name], saved.base[name]) && s.theirsApplied.some((t) => t.name === name);
          expect(same(shown(s, name), display[name]) || netUnchanged, `reload kept ${name}`).toBe(true);
        }
        applyTheirs();
        display = Object.fromEntries(NAMES.map((n) => [n, shown(s, n) ?? null]));
      }
      for (const name of NAMES) expect(same(shown(s, name), display[name]), `step ${step}: ${name}`).toBe(true);
    }

    // Settle: back online, keep mine in every conflict, and let every write through.
    if (offline) s = m.onOnline(s);
    offline = false;
    complete(false);
    for (const c of s.conflicts) s = m.resolve(s, c.name, 'mine');
    for (let round = 0; round < 50; round++) {
      now += 10_000;
      const r = m.tick(s, now);
      s = r.state;
      if (r.send === null) break;
      request = r.send;
      complete(false);
      for (const c of s.conflicts) s = m.resolve(s, c.name, 'mine');
    }
    expect(s.inFlight).toBeNull();
    expect(s.conflicts).toEqual([]);
    for (const name of NAMES) expect(same(upstream.values[name], display[name]), `saved ${name}`).toBe(true);
  });
});
