import { describe, expect, it, vi } from 'vitest';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { answerName, formModel, formStateFrom, type FormValues, type WriteBatch } from '@/lib/forms';
import { FormRuntime, openRuntime, type RuntimeHooks, type SendOutcome } from '@/components/intake-form/runtime/form-runtime';
import { formOpening } from '@/lib/forms/opening';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';
import { withFakeBrowser } from './support/fake-browser';

/**
 * Leaving the form soon after typing: what the page holds is sent at once, or kept on the device and brought
 * back, and the status never says saved before the Portal has it.
 */

const contract = buildFundingContract();
const model = formModel(contract);
const TRADING = answerName('trading_name', 'trading_name', 'value');
const CONTACT = answerName('contact_name', 'contact_name', 'value');
const KEY = 'me:app';

withFakeBrowser();

function fakeStorage() {
  const store = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  return { store, copy: () => store.get(`intake-form:${KEY}`) ?? null };
}

/** Hooks whose writes wait for the test to answer them, in order. */
function scriptedHooks() {
  const sent: WriteBatch[] = [];
  const replies: Array<(o: SendOutcome) => void> = [];
  const hooks: RuntimeHooks = {
    send: (batch) => {
      sent.push(batch);
      return new Promise((resolve) => replies.push(resolve));
    },
    showValues: () => undefined,
    saved: () => undefined,
  };
  const reply = async (outcome: SendOutcome) => {
    replies.shift()?.(outcome);
    await vi.advanceTimersByTimeAsync(0);
  };
  return { hooks, sent, reply };
}

function wholeRuntime() {
  const state = formStateFrom(model, []);
  return new FormRuntime(model, { values: state.values, items: state.items, files: [], upstream: { values: state.values, answersRevision: 1, etag: '"e1"' } }, KEY);
}

/** Hooks of a page that cannot reach the BFF: every write ends offline. */
const offlineHooks = (): RuntimeHooks => ({ send: async () => ({ type: 'offline' }), showValues: () => undefined, saved: () => undefined });

/** A page of the whole form where TRADING is typed and the page is left at once; its write is on its way. */
async function typeAndLeave(value: string) {
  const runtime = wholeRuntime();
  const page = scriptedHooks();
  const detach = runtime.attach(page.hooks);
  runtime.edit(TRADING, value);
  detach();
  await vi.advanceTimersByTimeAsync(0);
  return { runtime, page };
}

/** An earlier page that could not send CONTACT and was hidden: the edit is on the device only. */
async function contactKeptOnDevice() {
  const first = wholeRuntime();
  first.attach(offlineHooks());
  first.edit(CONTACT, 'Kept Person');
  await vi.advanceTimersByTimeAsync(1_000);
  window.dispatchEvent(new Event('pagehide'));
}

const snapshot: FormSnapshotView = {
  application: { id: 'ciappl_test' } as FormSnapshotView['application'],
  contract: { ...contract, answers_revision: 1 },
  answers: { items: [], answers_revision: 1, etag: '"e1"' },
  items: [],
  files: [],
};

describe('a page that is left', () => {
  it('sends what it holds at once, without the quiet time, and empties the device copy once saved', async () => {
    const { copy } = fakeStorage();
    const runtime = wholeRuntime();
    const page = scriptedHooks();
    const detach = runtime.attach(page.hooks);
    runtime.typed(TRADING, 'Left Co');
    detach();
    // Kept on the device before anything is sent, then sent without waiting.
    expect(copy()).toContain('Left Co');
    await vi.advanceTimersByTimeAsync(0);
    expect(page.sent.map((b) => b.edits)).toEqual([{ [TRADING]: 'Left Co' }]);
    await page.reply({ type: 'success', answersRevision: 2, etag: '"e2"' });
    expect(copy()).toBeNull();
    // Nothing more: no timers left running for a page that is gone.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(page.sent).toHaveLength(1);
  });

  it('keeps the edit on the device when the write fails, and stops there', async () => {
    const { copy } = fakeStorage();
    const { page } = await typeAndLeave('Offline Co');
    await page.reply({ type: 'offline' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(page.sent).toHaveLength(1);
    expect(JSON.parse(copy()!)).toMatchObject({ edits: { [TRADING]: 'Offline Co' } });
  });

  it('the next page of the same form reads the device copy once the left one is done with it', async () => {
    const { copy } = fakeStorage();
    const { page: leftPage } = await typeAndLeave('First Co');
    expect(leftPage.sent).toHaveLength(1);

    const next = wholeRuntime();
    const nextPage = scriptedHooks();
    next.attach(nextPage.hooks);
    // Its edits are still on their way: not saved as far as this page can tell.
    expect(next.saveState()).toBe('saving');
    next.edit(CONTACT, 'Second Person');
    await leftPage.reply({ type: 'error', message: 'Bad gateway' });
    // The left page gave up: its edit comes back here, beside this page's own, and both are sent.
    expect(next.values[TRADING]).toBe('First Co');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(nextPage.sent.at(-1)!.edits).toEqual({ [TRADING]: 'First Co', [CONTACT]: 'Second Person' });
    await nextPage.reply({ type: 'success', answersRevision: 2, etag: '"e2"' });
    expect(next.saveState()).toBe('saved');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(copy()).toBeNull();
  });

  it('attached again (React runs effects twice in development), it goes on as before', async () => {
    fakeStorage();
    const runtime = wholeRuntime();
    const page = scriptedHooks();
    runtime.attach(page.hooks)();
    runtime.attach(page.hooks);
    runtime.edit(TRADING, 'Again Co');
    await vi.advanceTimersByTimeAsync(100);
    expect(page.sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(page.sent).toHaveLength(1);
  });
});

describe('a page opened on another section than the edits kept on the device', () => {
  it('does not say saved until they are back and sent', async () => {
    const { copy } = fakeStorage();
    await contactKeptOnDevice();
    expect(copy()).toContain('Kept Person');

    const runtime = openRuntime(formOpening(snapshot, 'funding'), KEY);
    const page = scriptedHooks();
    runtime.attach(page.hooks);
    expect(runtime.saveState()).toBe('saving');
    runtime.upgrade(snapshot, () => undefined);
    expect(runtime.values[CONTACT]).toBe('Kept Person');
    expect(page.sent.at(-1)!.edits).toEqual({ [CONTACT]: 'Kept Person' });
    expect(runtime.saveState()).toBe('saving');
    await page.reply({ type: 'success', answersRevision: 2, etag: '"e2"' });
    expect(runtime.saveState()).toBe('saved');
  });

  it('sends them when they come back after the upstream moved on (not a quiet time that starts again at every tick)', async () => {
    fakeStorage();
    await contactKeptOnDevice();

    const runtime = openRuntime(formOpening(snapshot, 'declarations'), KEY);
    const page = scriptedHooks();
    runtime.attach(page.hooks);
    // Someone else saved before the whole form was read: the read is newer than the opening.
    const moved = { ...snapshot, answers: { items: [{ block_key: 'website', schema_key: 'website', field_key: 'value', value: 'https://x.example' } as never], answers_revision: 2, etag: '"e2"' } };
    runtime.upgrade(moved, () => undefined);
    expect(runtime.values[CONTACT]).toBe('Kept Person');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(page.sent.map((b) => b.edits)).toEqual([{ [CONTACT]: 'Kept Person' }]);
    expect(page.sent[0]).toMatchObject({ answersRevision: 2, etag: '"e2"' });
  });

  it('going away before they are back, it adds its own edits to the device copy and replaces nothing', async () => {
    const { copy } = fakeStorage();
    await contactKeptOnDevice();

    const runtime = openRuntime(formOpening(snapshot, 'business'), KEY);
    runtime.attach(offlineHooks());
    runtime.edit(TRADING, 'Typed Here');
    window.dispatchEvent(new Event('pagehide'));
    const kept = JSON.parse(copy()!) as { edits: FormValues };
    expect(kept.edits).toEqual({ [CONTACT]: 'Kept Person', [TRADING]: 'Typed Here' });
  });
});
