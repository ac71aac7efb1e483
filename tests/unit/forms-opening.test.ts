import { describe, expect, it, vi } from 'vitest';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import type { RepeatableItemView } from '@/lib/bff/items';
import { answerName, computeVisibility, formModel, formStateFrom, progressOf, type FormValues } from '@/lib/forms';
import { openRuntime, type RuntimeHooks } from '@/components/intake-form/runtime/form-runtime';
import { formOpening, type FormOpeningView } from '@/lib/forms/opening';
import type { AnswerItem, AnswerValue } from '@/lib/portal';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';
import { buildLargeContract, largeContractSeedAnswers } from '@/server/sandbox/seed/large-contract';
import type { ContractTemplate, SeedItem } from '@/server/sandbox/seed/types';
import { withFakeBrowser } from './support/fake-browser';

/**
 * A form page opens on one section (lib/forms/opening) and completes itself from the whole snapshot once it
 * is interactive (FormRuntime.upgrade): the opening must carry all that section needs, count progress like
 * the whole form, and the upgrade must lose nothing typed meanwhile nor kept on the device.
 */

const answer = (a: { block_key: string; schema_key: string; field_key: string; value: AnswerValue }) => a as unknown as AnswerItem;

function itemViews(items: SeedItem[], parent: string | null = null, out: RepeatableItemView[] = []): RepeatableItemView[] {
  items.forEach((item, i) => {
    const id = `rit_${item.block_key}${out.length}${i}`;
    out.push({ item_id: id, block_key: item.block_key, parent_item_id: parent, order: i, answers: item.answers.map((a) => answer({ block_key: item.block_key, ...a })) });
    itemViews(item.children ?? [], id, out);
  });
  return out;
}

function snapshotOf(contract: ContractTemplate, answers: AnswerItem[], items: RepeatableItemView[] = [], revision = 3): FormSnapshotView {
  return {
    application: { id: 'ciappl_test' } as FormSnapshotView['application'],
    contract: { ...contract, answers_revision: revision },
    answers: { items: answers, answers_revision: revision, etag: `"r${revision}"` },
    items,
    files: [],
  };
}

const large = buildLargeContract();
const seeded = largeContractSeedAnswers(large, 12);
const largeSnapshot = snapshotOf(large, seeded.answers.map(answer), itemViews(seeded.items));

function wholeProgress(snapshot: FormSnapshotView) {
  const model = formModel(snapshot.contract);
  const state = formStateFrom(model, snapshot.answers.items, snapshot.items);
  return progressOf(model, state.values, computeVisibility(model, state.values, state.items));
}

const openedRuntime = (opening: FormOpeningView, storageKey: string | null = null) => openRuntime(opening, storageKey);

describe('the opening of a large form', () => {
  it('carries one section and an index, a small part of the whole', () => {
    const opening = formOpening(largeSnapshot, 'p03');
    expect(opening.opening.sectionKey).toBe('p03');
    expect(new Set(opening.contract.questions.map((q) => q.section_key))).toEqual(new Set(['p03']));
    expect(opening.contract.sections).toEqual(large.sections);
    expect(opening.answers.items.every((a) => a.schema_key.startsWith('p03'))).toBe(true);
    expect(opening.answers.items.length).toBeGreaterThan(0);
    expect(JSON.stringify(opening).length).toBeLessThan(JSON.stringify(largeSnapshot).length / 10);
  });

  it('counts progress like the whole form, section by section', () => {
    const whole = wholeProgress(largeSnapshot);
    const { index } = formOpening(largeSnapshot, 'p01').opening;
    expect(index.sections).toEqual(whole.sections);
    expect([index.answered, index.total, index.percent]).toEqual([whole.answered, whole.total, whole.percent]);
  });

  it('opens the first section when the one asked for is not in the contract', () => {
    expect(formOpening(largeSnapshot, 'nope').opening.sectionKey).toBe(large.sections[0]!.section_key);
    expect(formOpening(largeSnapshot, null).opening.sectionKey).toBe(large.sections[0]!.section_key);
  });

  it('carries a section’s repeatable groups, nested ones and their items', () => {
    const groupSection = large.repeatable_groups.find((g) => g.parent_block_key === null)!.section_key;
    const opening = formOpening(largeSnapshot, groupSection);
    expect(opening.contract.repeatable_groups.map((g) => g.block_key).sort()).toEqual(['ga', 'gb']);
    expect(opening.items).toHaveLength(largeSnapshot.items.length);
  });

  it('carries the questions of other sections that its visibility reads, and nothing else of them', () => {
    // The funding form with has_existing_debt moved to another section than the questions it shows.
    const base = buildFundingContract();
    const contract = {
      ...base,
      questions: base.questions.map((q) => (q.schema_key === 'has_existing_debt' ? { ...q, section_key: 'business' } : q)),
    };
    const snapshot = snapshotOf(contract, [answer({ block_key: 'has_existing_debt', schema_key: 'has_existing_debt', field_key: 'value', value: true })]);
    const opening = formOpening(snapshot, 'financials');
    const keys = opening.contract.questions.map((q) => q.schema_key);
    expect(keys).toContain('existing_debt_amount');
    expect(keys).toContain('has_existing_debt');
    expect(keys).not.toContain('legal_name');
    expect(opening.answers.items.map((a) => a.schema_key)).toEqual(['has_existing_debt']);
    // The question it reads is answered "yes" in the other section: visible from the start.
    expect(openedRuntime(opening).isVisible('existing_debt_amount', null)).toBe(true);
  });
});

describe('a runtime opened on one section', () => {
  withFakeBrowser();

  const first = (opening: FormOpeningView) => opening.contract.questions.find((q) => q.kind === 'short_text' || q.fields[0]?.value_schema.type === 'string')!;

  it('shows the index’s progress with the open section counted live, then the whole form’s after the upgrade', () => {
    const opening = formOpening(largeSnapshot, 'p20');
    const runtime = openedRuntime(opening);
    expect(runtime.complete).toBe(false);
    const before = runtime.progress();
    expect(before.sections).toEqual(opening.opening.index.sections);
    const q = first(opening);
    runtime.edit(answerName(q.block_key, q.schema_key, q.fields[0]!.field_key), 'typed');
    const during = runtime.progress();
    expect(during.answered).toBeGreaterThanOrEqual(before.answered);

    const shown: FormValues[] = [];
    runtime.upgrade(largeSnapshot, (added) => shown.push(added));
    expect(runtime.complete).toBe(true);
    expect(shown).toHaveLength(1);
    // Everything the opening lacked came in; what was typed stays.
    const p01 = largeSnapshot.answers.items.find((a) => a.schema_key.startsWith('p01'))!;
    expect(runtime.values[answerName(p01.block_key, p01.schema_key, p01.field_key)]).toEqual(p01.value);
    expect(runtime.values[answerName(q.block_key, q.schema_key, q.fields[0]!.field_key)]).toBe('typed');
    expect(runtime.items).toHaveLength(largeSnapshot.items.length);
    expect(runtime.progress().sections.map((s) => s.sectionKey)).toEqual(large.sections.map((s) => s.section_key));
    expect(runtime.model.sections.every((s) => s.entries.length > 0)).toBe(true);
    // What came in is the upstream's: not something to save, and no "updated by someone else" notice.
    expect(Object.keys(runtime.autosave.pending)).toEqual([answerName(q.block_key, q.schema_key, q.fields[0]!.field_key)]);
    expect(runtime.autosave.theirsApplied).toEqual([]);
  });

  it('merges the open section when the upstream moved on before the whole form was read', () => {
    const opening = formOpening(largeSnapshot, 'p01');
    const runtime = openedRuntime(opening);
    const hooks: RuntimeHooks = { send: () => new Promise(() => undefined), showValues: () => undefined, saved: () => undefined };
    runtime.attach(hooks);
    const changed = largeSnapshot.answers.items.find((a) => a.schema_key.startsWith('p01') && typeof a.value === 'string')!;
    const moved = {
      ...largeSnapshot,
      answers: {
        items: largeSnapshot.answers.items.map((a) => (a === changed ? { ...a, value: 'changed by someone else' } : a)),
        answers_revision: 4,
        etag: '"r4"',
      },
    };
    runtime.upgrade(moved, () => undefined);
    const name = answerName(changed.block_key, changed.schema_key, changed.field_key);
    expect(runtime.values[name]).toBe('changed by someone else');
    expect(runtime.autosave.theirsApplied.map((t) => t.name)).toEqual([name]);
    expect(runtime.autosave.answersRevision).toBe(4);
  });

  it('keeps edits stored on this device untouched until the upgrade, then brings them back', async () => {
    const store = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    });
    // A first visit, with the whole form, leaves an unsaved edit in section p30 on the device.
    const whole = openedRuntime({ ...largeSnapshot, opening: undefined } as unknown as FormOpeningView, 'me:app');
    const p30 = large.questions.find((q) => q.section_key === 'p30' && q.fields[0]?.value_schema.type === 'string')!;
    const p30Name = answerName(p30.block_key, p30.schema_key, p30.fields[0]!.field_key);
    const offline: RuntimeHooks = { send: async () => ({ type: 'offline' }), showValues: () => undefined, saved: () => undefined };
    whole.attach(offline);
    whole.edit(p30Name, 'kept on the device');
    await vi.advanceTimersByTimeAsync(0); // the device copy is written once idle
    const stored = store.get('intake-form:me:app');
    expect(stored).toContain('kept on the device');

    // The next visit opens on p01: typing there must not overwrite the stored edit before the upgrade.
    const opening = formOpening(largeSnapshot, 'p01');
    const runtime = openedRuntime(opening, 'me:app');
    const shownValues: FormValues[] = [];
    runtime.attach({ send: () => new Promise(() => undefined), showValues: (v) => shownValues.push(v), saved: () => undefined });
    const q = first(opening);
    runtime.edit(answerName(q.block_key, q.schema_key, q.fields[0]!.field_key), 'typed on p01');
    await vi.advanceTimersByTimeAsync(0);
    expect(store.get('intake-form:me:app')).toBe(stored);

    runtime.upgrade(largeSnapshot, () => undefined);
    expect(runtime.values[p30Name]).toBe('kept on the device');
    expect(shownValues.some((v) => v[p30Name] === 'kept on the device')).toBe(true);
    expect(Object.keys(runtime.autosave.pending).sort()).toEqual([answerName(q.block_key, q.schema_key, q.fields[0]!.field_key), p30Name].sort());
    await vi.advanceTimersByTimeAsync(0);
    expect(store.get('intake-form:me:app')).toContain('typed on p01');
  });

  it('lets a submit wait for the whole form', async () => {
    const runtime = openedRuntime(formOpening(largeSnapshot, 'p02'));
    let done = false;
    void runtime.whenComplete().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    runtime.upgrade(largeSnapshot, () => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
  });
});
