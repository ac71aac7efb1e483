import { describe, expect, it, vi } from 'vitest';
import { FormRuntime, type RuntimeHooks, type SendOutcome } from '@/components/intake-form/runtime/form-runtime';
import { fromDomValue, toDomValue } from '@/components/intake-form/dom-values';
import { answerName, fieldForName, formModel, formStateFrom, itemName, type FormValues, type WriteBatch } from '@/lib/forms';
import type { RepeatableItemView } from '@/lib/bff/items';
import type { FileView } from '@/lib/bff/files';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';
import { withFakeBrowser } from './support/fake-browser';

/**
 * The form's live state outside React (components/intake-form/form-runtime.ts): edits to autosave and
 * visibility, the write loop against a scripted upstream, merges, items and files.
 */

const model = formModel(buildFundingContract());
const LEGAL = answerName('legal_name', 'legal_name', 'value');
const TRADING = answerName('trading_name', 'trading_name', 'value');
const HAS_DEBT = answerName('has_existing_debt', 'has_existing_debt', 'value');

interface Harness {
  runtime: FormRuntime;
  sent: WriteBatch[];
  shown: FormValues[];
  reply: (outcome: SendOutcome) => Promise<void>;
}

function harness(values: FormValues = {}, items: RepeatableItemView[] = []): Harness {
  const state = formStateFrom(model, Object.entries(values).map(([name, value]) => {
    const f = fieldForName(model, name)!;
    return { block_key: f.blockKey, schema_key: f.schemaKey, field_key: f.fieldKey, value: value as never };
  }), items);
  const runtime = new FormRuntime(model, { values: state.values, items: state.items, files: [], upstream: { values: state.values, answersRevision: 1, etag: '"e1"' } }, null);
  const sent: WriteBatch[] = [];
  const shown: FormValues[] = [];
  let resolve: ((o: SendOutcome) => void) | null = null;
  const hooks: RuntimeHooks = {
    send: (batch) => {
      sent.push(batch);
      return new Promise((r) => (resolve = r));
    },
    showValues: (v) => shown.push(v),
    saved: () => undefined,
  };
  runtime.attach(hooks);
  return {
    runtime,
    sent,
    shown,
    reply: async (outcome) => {
      const r = resolve;
      resolve = null;
      r?.(outcome);
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

withFakeBrowser();

describe('edits, visibility and the write loop', () => {
  it('shows conditional questions as answers change and saves a burst after the quiet time', async () => {
    const h = harness();
    expect(h.runtime.isVisible('existing_debt_amount', null)).toBe(false);
    h.runtime.edit(HAS_DEBT, 'true');
    expect(h.runtime.isVisible('existing_debt_amount', null)).toBe(true);
    h.runtime.edit(LEGAL, 'Harbour Ltd');
    expect(h.runtime.autosave.status).toBe('saving');
    expect(h.sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.edits).toEqual({ [HAS_DEBT]: 'true', [LEGAL]: 'Harbour Ltd' });
    await h.reply({ type: 'success', answersRevision: 2, etag: '"e2"' });
    expect(h.runtime.autosave.status).toBe('saved');
    expect(h.runtime.autosave.etag).toBe('"e2"');
  });

  it('merges a 412: theirs shown in the inputs, mine re-sent with the new revision', async () => {
    const h = harness({ [LEGAL]: 'Old Ltd' });
    h.runtime.edit(TRADING, 'Mine');
    await vi.advanceTimersByTimeAsync(1_000);
    await h.reply({ type: 'conflict', current: { values: { [LEGAL]: 'Their Ltd', [TRADING]: '' }, answersRevision: 5, etag: '"e5"' } });
    expect(h.shown).toContainEqual({ [LEGAL]: 'Their Ltd' });
    expect(h.runtime.values[LEGAL]).toBe('Their Ltd');
    expect(h.runtime.autosave.theirsApplied.map((t) => t.name)).toEqual([LEGAL]);
    expect(h.sent).toHaveLength(2);
    expect(h.sent[1]).toMatchObject({ edits: { [TRADING]: 'Mine' }, answersRevision: 5, etag: '"e5"' });
  });

  it('keeps a field both changed as a conflict until the person chooses; choosing theirs shows theirs', async () => {
    const h = harness({ [LEGAL]: 'Old Ltd' });
    h.runtime.edit(LEGAL, 'Mine Ltd');
    await vi.advanceTimersByTimeAsync(1_000);
    await h.reply({ type: 'conflict', current: { values: { [LEGAL]: 'Their Ltd' }, answersRevision: 5, etag: '"e5"' } });
    expect(h.runtime.conflictOf(LEGAL)).toMatchObject({ mine: 'Mine Ltd', theirs: 'Their Ltd' });
    expect(h.runtime.values[LEGAL]).toBe('Mine Ltd');
    expect(h.sent).toHaveLength(1);
    h.runtime.resolve(LEGAL, 'theirs');
    expect(h.shown).toContainEqual({ [LEGAL]: 'Their Ltd' });
    expect(h.runtime.conflictOf(LEGAL)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.sent).toHaveLength(1);
  });

  it('goes offline on a network failure, keeps the edit, and tries again later', async () => {
    const h = harness();
    h.runtime.edit(LEGAL, 'Offline Ltd');
    await vi.advanceTimersByTimeAsync(1_000);
    await h.reply({ type: 'offline' });
    expect(h.runtime.autosave.status).toBe('offline');
    expect(h.runtime.autosave.pending[LEGAL]).toBe('Offline Ltd');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(h.sent).toHaveLength(2);
    expect(h.sent[1]!.edits).toEqual({ [LEGAL]: 'Offline Ltd' });
  });

  it('holds a refused field with the upstream message and sends it again once edited', async () => {
    const h = harness();
    h.runtime.edit(LEGAL, 'X');
    await vi.advanceTimersByTimeAsync(1_000);
    // Refused here already (minLength 2): kept, not sent.
    expect(h.sent).toHaveLength(0);
    h.runtime.edit(LEGAL, 'Xy Ltd');
    await vi.advanceTimersByTimeAsync(1_000);
    await h.reply({ type: 'rejected', fieldErrors: { [LEGAL]: 'Too short' } });
    expect(h.runtime.autosave.rejected[LEGAL]).toBe('Too short');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(h.sent).toHaveLength(1);
    h.runtime.edit(LEGAL, 'Xylophone Ltd');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.sent[1]!.edits).toEqual({ [LEGAL]: 'Xylophone Ltd' });
  });

  it('whenSettled waits for the write in flight', async () => {
    const h = harness();
    h.runtime.edit(LEGAL, 'Soon Ltd');
    let settled = false;
    void h.runtime.whenSettled().then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.sent).toHaveLength(1);
    expect(settled).toBe(false);
    await h.reply({ type: 'success', answersRevision: 2, etag: '"e2"' });
    expect(settled).toBe(true);
  });
});

describe('items and fresh snapshots', () => {
  const owner = (id: string, name: string): RepeatableItemView => ({
    item_id: id,
    block_key: 'owners',
    parent_item_id: null,
    order: 1,
    answers: [{ block_key: 'owners', schema_key: 'owner_full_name', field_key: 'value', value: name } as never],
  });

  it('adopts the revision of an item added when nobody else wrote in between, not otherwise', () => {
    const h = harness();
    h.runtime.addItem(owner('ritem_a', 'Ann'), { answersRevision: 2, etag: '"e2"', basedOn: 1 });
    expect(h.runtime.childrenOf('owners', null).map((i) => i.itemId)).toEqual(['ritem_a']);
    expect(h.runtime.values[itemName('ritem_a', 'owner_full_name', 'value')]).toBe('Ann');
    expect(h.runtime.autosave.etag).toBe('"e2"');
    h.runtime.addItem(owner('ritem_b', 'Bo'), { answersRevision: 9, etag: '"e9"', basedOn: 2 });
    expect(h.runtime.autosave.etag).toBe('"e2"');
  });

  it('a fresh snapshot brings others’ items and answers and drops removed items, keeping my unsent edits', () => {
    const h = harness({}, [owner('ritem_a', 'Ann')]);
    h.runtime.edit(TRADING, 'Mine');
    h.runtime.refreshFrom({
      answers: { items: [{ block_key: 'legal_name', schema_key: 'legal_name', field_key: 'value', value: 'Their Ltd' } as never], answers_revision: 4, etag: '"e4"' },
      items: [owner('ritem_b', 'Bo')],
      files: [],
    });
    expect(h.runtime.childrenOf('owners', null).map((i) => i.itemId)).toEqual(['ritem_b']);
    expect(h.runtime.values[LEGAL]).toBe('Their Ltd');
    expect(h.runtime.values[TRADING]).toBe('Mine');
    // My edit goes out at once, against the revision just read.
    expect(h.sent.at(-1)).toMatchObject({ edits: { [TRADING]: 'Mine' }, answersRevision: 4, etag: '"e4"' });
  });

  // Seen in CI: an upload's own live event started a read; an item added while it ran vanished when it came back.
  const snapshot = (revision: number, items: RepeatableItemView[], files: FileView[] = []) => ({
    answers: { items: [], answers_revision: revision, etag: `"e${revision}"` },
    items,
    files,
  });
  const NAME_A = itemName('ritem_a', 'owner_full_name', 'value');

  it('a read started before this page added an item does not take it away, nor its saved answers', async () => {
    const h = harness();
    const mark = h.runtime.readMark();
    // Not adopted (someone, or this page's upload, wrote in between): the read below is newer than autosave's revision.
    h.runtime.addItem(owner('ritem_a', 'Ann'), { answersRevision: 4, etag: '"e4"', basedOn: 1 });
    h.runtime.edit(NAME_A, 'Ann Lee');
    await vi.advanceTimersByTimeAsync(2_000);
    await h.reply({ type: 'success', answersRevision: 5, etag: '"e5"' });
    h.runtime.refreshFrom(snapshot(3, []), mark);
    expect(h.runtime.childrenOf('owners', null).map((i) => i.itemId)).toEqual(['ritem_a']);
    expect(h.runtime.values[NAME_A]).toBe('Ann Lee');
    expect(h.runtime.autosave.theirsApplied).toEqual([]);
    // A read started after the add that lacks it: someone removed it.
    h.runtime.refreshFrom(snapshot(6, []), h.runtime.readMark());
    expect(h.runtime.childrenOf('owners', null)).toEqual([]);
  });

  it('an item this page removed after a read started does not come back with that read', () => {
    const h = harness({}, [owner('ritem_a', 'Ann')]);
    const mark = h.runtime.readMark();
    h.runtime.removeItems(['ritem_a'], { answersRevision: 3, etag: '"e3"', basedOn: 1 });
    h.runtime.refreshFrom(snapshot(2, [owner('ritem_a', 'Ann')]), mark);
    expect(h.runtime.childrenOf('owners', null)).toEqual([]);
    expect(h.runtime.values[NAME_A]).toBeUndefined();
  });

  it('a file attached or removed after a read started stays so; the read’s other files come in', () => {
    const file = (id: string, schema: string): FileView => ({
      id, filename: `${id}.pdf`, content_type: 'application/pdf', size: 9, created_at: '2026-11-27T00:00:00Z',
      block_key: schema, schema_key: schema, field_key: 'value', item_id: null,
    });
    const STATEMENTS = answerName('bank_statements', 'bank_statements', 'value');
    const ACCOUNTS = answerName('annual_accounts', 'annual_accounts', 'value');
    const h = harness();
    h.runtime.fileAdded(ACCOUNTS, file('afile_old', 'annual_accounts'));
    const mark = h.runtime.readMark();
    h.runtime.fileAdded(STATEMENTS, file('afile_new', 'bank_statements'));
    h.runtime.fileRemoved(ACCOUNTS, 'afile_old');
    h.runtime.refreshFrom(snapshot(3, [], [file('afile_old', 'annual_accounts'), file('afile_theirs', 'bank_statements')]), mark);
    expect(h.runtime.filesOf(STATEMENTS).map((f) => f.id)).toEqual(['afile_theirs', 'afile_new']);
    expect(h.runtime.filesOf(ACCOUNTS)).toEqual([]);
    expect(h.runtime.values[STATEMENTS]).toEqual(['afile_theirs', 'afile_new']);
  });
});

describe('DOM values', () => {
  const field = (name: string) => fieldForName(model, name)!;
  it('yes/no travels as the strings a radio pair holds', () => {
    expect(toDomValue(field(HAS_DEBT), true)).toBe('true');
    expect(toDomValue(field(HAS_DEBT), null)).toBeNull();
    expect(fromDomValue(field(HAS_DEBT), 'false')).toBe('false');
  });
  it('a group of one ticked box still reads as a list', () => {
    const group = model.topFields.find((f) => f.widget === 'checkbox-group')!;
    expect(fromDomValue(group, 'equipment')).toEqual(['equipment']);
    expect(fromDomValue(group, false)).toEqual([]);
    expect(fromDomValue(group, undefined)).toEqual([]);
  });
});

describe('a truthful save state', () => {
  const EMAIL = answerName('contact_email', 'contact_email', 'value');

  /** A runtime keeping its edits under `key` in a stubbed localStorage, attached like the page does. */
  function deviceHarness(storage: Map<string, string>, key: string) {
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
      removeItem: (k: string) => void storage.delete(k),
    });
    const state = formStateFrom(model, []);
    const runtime = new FormRuntime(model, { values: state.values, items: state.items, files: [], upstream: { values: state.values, answersRevision: 1, etag: '"e1"' } }, key);
    const shown: FormValues[] = [];
    const sent: WriteBatch[] = [];
    return {
      runtime,
      shown,
      sent,
      attach: () =>
        runtime.attach({ send: (b) => (sent.push(b), new Promise<SendOutcome>(() => undefined)), showValues: (v) => shown.push(v), saved: () => undefined }),
    };
  }

  it('never says saved while an answer is held back as invalid, and names it with the reason', async () => {
    const h = harness();
    h.runtime.edit(EMAIL, '.test@example.com');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.sent).toHaveLength(0);
    expect(h.runtime.autosave.status).toBe('saved');
    expect(h.runtime.saveState()).toBe('invalid');
    expect(h.runtime.heldAnswers()).toEqual([{ name: EMAIL, reason: 'Enter a valid email address' }]);
    h.runtime.edit(EMAIL, 'test@example.com');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.sent).toHaveLength(1);
    await h.reply({ type: 'success', answersRevision: 2, etag: '"e2"' });
    expect(h.runtime.saveState()).toBe('saved');
    expect(h.runtime.heldAnswers()).toEqual([]);
  });

  it('whenSettled does not wait for a held answer, which waits for the person, not the network', async () => {
    const h = harness();
    h.runtime.edit(EMAIL, 'te..st@example.com');
    let settled = false;
    void h.runtime.whenSettled().then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  });

  it('says "waiting for your decision" while a conflict is open, and a refusal (422) is held with its reason', async () => {
    const h = harness({ [LEGAL]: 'Base Ltd' });
    h.runtime.edit(LEGAL, 'Mine Ltd');
    await vi.advanceTimersByTimeAsync(1_000);
    const upstream = formStateFrom(model, [{ block_key: 'legal_name', schema_key: 'legal_name', field_key: 'value', value: 'Theirs Ltd' }]);
    await h.reply({ type: 'conflict', current: { values: upstream.values, answersRevision: 2, etag: '"e2"' } });
    expect(h.runtime.saveState()).toBe('conflict');

    const r = harness();
    r.runtime.edit(TRADING, 'Refused');
    await vi.advanceTimersByTimeAsync(1_000);
    await r.reply({ type: 'rejected', fieldErrors: { [TRADING]: 'Not accepted by the Portal' } });
    expect(r.runtime.saveState()).toBe('invalid');
    expect(r.runtime.heldAnswers()).toEqual([{ name: TRADING, reason: 'Not accepted by the Portal' }]);
  });

  it('reads the device only once attached (no server/client difference), and a held value comes back held, with its reason', async () => {
    const storage = new Map<string, string>();
    const first = deviceHarness(storage, 'me:app');
    first.attach();
    first.runtime.edit(EMAIL, 'te..st@example.com');
    first.runtime.edit(TRADING, 'Refused Co');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(first.sent.map((b) => Object.keys(b.edits))).toEqual([[TRADING]]);
    expect(storage.size).toBe(1);

    // The 422 never arrives in this page: persist a refusal as the page would have after one.
    const saved = JSON.parse([...storage.values()][0]!) as Record<string, unknown>;
    storage.set([...storage.keys()][0]!, JSON.stringify({ ...saved, rejected: { [TRADING]: 'Not accepted by the Portal' } }));

    const again = deviceHarness(storage, 'me:app');
    // Before attach the runtime is exactly what the server rendered: nothing from the device.
    expect(again.runtime.values[EMAIL]).toBe('');
    expect(again.runtime.saveState()).toBe('idle');
    again.attach();
    expect(again.shown[0]).toMatchObject({ [EMAIL]: 'te..st@example.com', [TRADING]: 'Refused Co' });
    expect(again.runtime.saveState()).toBe('invalid');
    expect(again.runtime.heldAnswers()).toEqual([
      { name: EMAIL, reason: 'Enter a valid email address' },
      { name: TRADING, reason: 'Not accepted by the Portal' },
    ]);
    expect(again.runtime.restoredReason(EMAIL)).toBe('Enter a valid email address');
    again.runtime.edit(EMAIL, 'test@example.com');
    expect(again.runtime.restoredReason(EMAIL)).toBeNull();
  });

  it('keeps an edit on the device once idle, not inside the keystroke, and at once when the page goes away', async () => {
    const storage = new Map<string, string>();
    const h = deviceHarness(storage, 'me:app');
    h.attach();
    h.runtime.edit(TRADING, 'Kept Co');
    expect(storage.size).toBe(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(JSON.parse([...storage.values()][0]!)).toMatchObject({ edits: { [TRADING]: 'Kept Co' } });

    h.runtime.edit(TRADING, 'Kept Co Ltd');
    window.dispatchEvent(new Event('pagehide'));
    expect(JSON.parse([...storage.values()][0]!)).toMatchObject({ edits: { [TRADING]: 'Kept Co Ltd' } });
  });

  it('a keystroke changes the state at once and tells subscribers, the autosave timer and the device after its frame', async () => {
    const storage = new Map<string, string>();
    const h = deviceHarness(storage, 'me:app');
    h.attach();
    let told = 0;
    h.runtime.subscribe(() => told++);
    h.runtime.typed(TRADING, 'Typed Co');
    // Whatever reads the runtime now (a submit, a merge, the page going away) sees the edit.
    expect(h.runtime.autosave.pending).toMatchObject({ [TRADING]: 'Typed Co' });
    expect(told).toBe(0);
    window.dispatchEvent(new Event('pagehide'));
    expect(JSON.parse([...storage.values()][0]!)).toMatchObject({ edits: { [TRADING]: 'Typed Co' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(told).toBeGreaterThan(0);

    // A question that appears with the keystroke is shown with it.
    told = 0;
    h.runtime.typed(HAS_DEBT, 'true');
    expect(h.runtime.isVisible('existing_debt_amount', null)).toBe(true);
    expect(told).toBeGreaterThan(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.sent.map((b) => Object.keys(b.edits).sort())).toEqual([[HAS_DEBT, TRADING].sort()]);
  });

  it('hands out the same held list while it does not change, so the save status skips the keystroke', () => {
    const h = harness();
    h.runtime.edit(EMAIL, 'te..st@example.com');
    const held = h.runtime.heldAnswers();
    h.runtime.edit(LEGAL, 'Typing Ltd');
    expect(h.runtime.heldAnswers()).toBe(held);
    h.runtime.edit(EMAIL, 'te..st@example.co');
    expect(h.runtime.heldAnswers()).toBe(held);
    h.runtime.edit(EMAIL, 'test@example.com');
    expect(h.runtime.heldAnswers()).toEqual([]);
  });
});
