import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { answerName, checkField, fieldForName, formModel, formStateFrom, sendableCheck, UNREADABLE_INPUT, type WriteBatch } from '@/lib/forms';
import { FormRuntime } from '@/components/intake-form/runtime/form-runtime';
import { formOpening } from '@/lib/forms/opening';
import { sendBatch } from '@/components/intake-form/runtime/transport';
import { displayValue } from '@/components/intake-form/display-value';
import { fromDomInput, toDomValue } from '@/components/intake-form/dom-values';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';
import { withFakeBrowser } from './support/fake-browser';

/**
 * An input the browser cannot read (a date that does not exist: 02/31/2026) reports an empty value. It is held
 * as "not a valid date" with a message, never sent as empty; and no write is called saved unless all of it went.
 */

const contract = buildFundingContract();
const model = formModel(contract);
const YEAR_END = answerName('financial_year_end', 'financial_year_end', 'value');
const CONTACT = answerName('contact_name', 'contact_name', 'value');
const field = fieldForName(model, YEAR_END)!;
const MESSAGE = 'Not a valid date: check the day, month and year.';

withFakeBrowser();
afterEach(() => vi.unstubAllGlobals());

describe('what the browser could not read', () => {
  it('is read from the input, not taken for an empty answer', () => {
    expect(fromDomInput(field, '', { validity: { badInput: true } } as unknown as Element)).toBe(UNREADABLE_INPUT);
    expect(fromDomInput(field, '', { validity: { badInput: false } } as unknown as Element)).toBe('');
    expect(fromDomInput(field, '2026-03-31', null)).toBe('2026-03-31');
  });

  it('is refused with a message, never sendable, and shown as what it is', () => {
    expect(checkField(field, UNREADABLE_INPUT)).toBe(MESSAGE);
    expect(sendableCheck(model)(YEAR_END, UNREADABLE_INPUT)).toBe(false);
    expect(toDomValue(field, UNREADABLE_INPUT)).toBe('');
    expect(displayValue(field, UNREADABLE_INPUT)).toBe('(not a valid date)');
  });

  it('holds the saved date: not sent, listed with its reason, the status not saved', async () => {
    const state = formStateFrom(model, [{ block_key: 'financial_year_end', schema_key: 'financial_year_end', field_key: 'value', value: '2026-03-31' }]);
    const runtime = new FormRuntime(model, { values: state.values, items: state.items, files: [], upstream: { values: state.values, answersRevision: 1, etag: '"e1"' } }, null);
    const sent: WriteBatch[] = [];
    runtime.attach({ send: async (b) => (sent.push(b), { type: 'success', answersRevision: 2, etag: '"e2"' }), showValues: () => undefined, saved: () => undefined });
    runtime.typed(YEAR_END, UNREADABLE_INPUT);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent).toEqual([]);
    expect(runtime.saveState()).toBe('invalid');
    expect(runtime.heldAnswers()).toEqual([{ name: YEAR_END, reason: MESSAGE }]);
    runtime.typed(YEAR_END, '2026-02-28');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent.map((b) => b.edits)).toEqual([{ [YEAR_END]: '2026-02-28' }]);
  });
});

describe('a write that could not carry every edit', () => {
  it('is not called saved', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    // The model of a page opened on Funding does not know the Contact section's questions.
    const snapshot = {
      application: { id: 'ciappl_test' },
      contract: { ...contract, answers_revision: 1 },
      answers: { items: [], answers_revision: 1, etag: '"e1"' },
      items: [],
      files: [],
    } as unknown as FormSnapshotView;
    const opening = formModel(formOpening(snapshot, 'funding').contract);
    const batch: WriteBatch = { id: 1, target: { kind: 'answers' }, edits: { [CONTACT]: 'Someone' }, answersRevision: 1, etag: '"e1"' };
    const outcome = await sendBatch('/api/applications/ciappl_test', opening, () => [], batch);
    expect(outcome.type).toBe('error');
    expect(fetch).not.toHaveBeenCalled();
  });
});
