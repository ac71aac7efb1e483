import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { answerName, fieldForName, formModel, sameAnswer, sendableCheck, UNREADABLE_INPUT, type FormValue } from '@/lib/forms';
import { formOpening } from '@/lib/forms/opening';
import type { AnswerItem } from '@/lib/portal';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';
import { withFakeBrowser } from './support/fake-browser';

/**
 * The browser's form runtime (components/intake-form/runtime) as a page drives it, against a fake BFF at the
 * fetch level: random interleavings of typing, time passing, the whole form arriving (upgrade), leaving by a
 * link of the app (unmount), reloads (a new page, its JavaScript started again, from the device copy),
 * someone else's writes, live refreshes, the connection going and coming, and every network outcome (success,
 * 412, 422, 503, a lost connection before or after the write landed, slow replies). Every value typed ends in
 * the Portal or is on screen, held with its reason; and whenever the status says saved, the Portal has
 * every value typed.
 */

const RUNS = Number(process.env.RUNTIME_PROPERTY_RUNS ?? 60);
const SEED = Number(process.env.RUNTIME_PROPERTY_SEED ?? 20261128);

const contract = buildFundingContract();
const model = formModel(contract);
const canSend = sendableCheck(model);
const API_BASE = '/api/applications/ciappl_prop' as const;
const KEY = 'usr_prop:ciappl_prop';
const SECTIONS = model.sections.map((s) => s.sectionKey);

const name = (key: string) => answerName(key, key, 'value');
/** What the person types, per field: answers, an empty field, and values the form holds back. */
const TYPED: Record<string, readonly FormValue[]> = {
  [name('legal_name')]: ['Alpha Ltd', 'Beta Ltd', 'X', ''],
  [name('trading_name')]: ['Trade One', 'Trade Two', ''],
  [name('contact_name')]: ['Ann Lee', 'Bo Chan', ''],
  [name('contact_email')]: ['ann@example.com', 'bo@example.com', '.bad@example.com', ''],
  [name('financial_year_end')]: ['2026-03-31', '2025-12-31', UNREADABLE_INPUT, ''],
};
/** What someone else writes meanwhile (other fields: their answers are theirs to keep). */
const OTHERS: Record<string, readonly FormValue[]> = {
  [name('contact_role')]: ['Director', 'Owner'],
  [name('accountant_name')]: ['Whitfield & Co', 'Smith LLP'],
  [name('website')]: ['https://a.example', 'https://b.example'],
};
const sectionOf = (n: string) => fieldForName(model, n)!.question.sectionKey;

type Fault = 'ok' | 'offline' | 'landed-then-dropped' | '503' | '422' | 'slow';

/** The Portal behind the BFF, as the form's writes reach it (PATCH answers/ with If-Match). */
class FakeUpstream {
  answers = new Map<string, AnswerItem>();
  revision = 1;
  offline = false;
  private faults: Fault[] = [];

  get etag() {
    return `"r${this.revision}"`;
  }

  snapshot(): FormSnapshotView {
    return {
      application: { id: 'ciappl_prop' } as FormSnapshotView['application'],
      contract: { ...contract, answers_revision: this.revision },
      answers: { items: [...this.answers.values()], answers_revision: this.revision, etag: this.etag },
      items: [],
      files: [],
    };
  }

  valueOf(n: string): FormValue {
    return (this.answers.get(n)?.value as FormValue | undefined) ?? null;
  }

  write(n: string, value: FormValue) {
    const f = fieldForName(model, n)!;
    this.answers.set(n, { block_key: f.blockKey, schema_key: f.schemaKey, field_key: f.fieldKey, value } as AnswerItem);
    this.revision += 1;
  }

  script(faults: readonly Fault[]) {
    this.faults = [...faults];
  }

  /** The fetch the browser code calls. */
  fetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Response> => {
    const fault: Fault = this.offline ? 'offline' : (this.faults.shift() ?? 'ok');
    const later = <T>(ms: number, fn: () => T) => new Promise<T>((resolve, reject) => setTimeout(() => {
      try {
        resolve(fn());
      } catch (e) {
        reject(e);
      }
    }, ms));
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (init.method !== 'PATCH' || url !== `${API_BASE}/answers`) return later(10, () => json(404, { error: { code: 'not_found', message: `${init.method} ${url}` } }));
    if (fault === 'offline') return later(30, () => { throw new TypeError('Failed to fetch'); });
    if (fault === '503') return later(30, () => json(503, { error: { code: 'upstream_unavailable', message: 'The Portal is busy.', details: [] } }));
    if (init.headers['If-Match'] !== this.etag) {
      const current = { items: [...this.answers.values()], answers_revision: this.revision, etag: this.etag };
      return later(30, () => json(412, { error: { code: 'precondition_failed', message: 'Someone else saved first.', details: [] }, current }));
    }
    const body = JSON.parse(init.body ?? '{}') as { answers: { block_key: string; schema_key: string; field_key: string; value: FormValue }[] };
    if (fault === '422') {
      const details = body.answers.map((a) => ({ code: 'invalid', message: 'Refused by the Portal', block_key: a.block_key, schema_key: a.schema_key, field_key: a.field_key }));
      return later(30, () => json(422, { error: { code: 'validation_failed', message: 'Not accepted.', details } }));
    }
    // The write lands when it arrives; its reply may be slow, or never come back.
    for (const a of body.answers) this.answers.set(answerName(a.block_key, a.schema_key, a.field_key), a as unknown as AnswerItem);
    this.revision += 1;
    if (fault === 'landed-then-dropped') return later(30, () => { throw new TypeError('Failed to fetch'); });
    const reply = { answers_revision: this.revision, etag: this.etag, updated_answers: body.answers, affected_section_keys: [] };
    return later(fault === 'slow' ? 2_500 : 30, () => json(200, reply));
  };
}

type Action =
  | { kind: 'type'; field: string; pick: number }
  | { kind: 'wait'; ms: number }
  | { kind: 'upgrade' }
  | { kind: 'leave' }
  | { kind: 'open'; section: string }
  | { kind: 'reload'; section: string }
  | { kind: 'other'; field: string; pick: number }
  | { kind: 'connection'; online: boolean }
  | { kind: 'refresh' }
  | { kind: 'resolve' };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('type' as const), field: fc.constantFrom(...Object.keys(TYPED)), pick: fc.nat(3) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.constantFrom(0, 20, 100, 500, 900, 2_000, 6_000) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'upgrade' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'leave' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('open' as const), section: fc.constantFrom(...SECTIONS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reload' as const), section: fc.constantFrom(...SECTIONS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('other' as const), field: fc.constantFrom(...Object.keys(OTHERS)), pick: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('connection' as const), online: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'refresh' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'resolve' as const }) },
);
const fault = fc.constantFrom<Fault>('ok', 'ok', 'ok', 'offline', 'landed-then-dropped', '503', '422', 'slow');

/** The runtime's modules as one page's JavaScript has them: a reload starts them again. */
async function loadPageScripts() {
  vi.resetModules();
  const runtime = await import('@/components/intake-form/runtime/form-runtime');
  const transport = await import('@/components/intake-form/runtime/transport');
  return { runtime, transport, dead: false };
}
type Scripts = Awaited<ReturnType<typeof loadPageScripts>>;
type Runtime = InstanceType<Scripts['runtime']['FormRuntime']>;

interface Page {
  scripts: Scripts;
  runtime: Runtime;
  section: string;
  detach: () => void;
}

const NEVER = new Promise<never>(() => undefined);

/** Opens the form as the page does: from an opening of one section, attached to the network, keeping edits on the device. */
function openPage(scripts: Scripts, upstream: FakeUpstream, section: string): Page {
  const runtime = scripts.runtime.openRuntime(formOpening(upstream.snapshot(), section), KEY);
  const sender = scripts.transport.autosaveSender(API_BASE, runtime);
  // Once the page's JavaScript is gone (a reload) nothing of it runs: no request leaves, no reply is heard.
  const send = (batch: Parameters<typeof sender>[0]) => (scripts.dead ? NEVER : sender(batch).then((o) => (scripts.dead ? NEVER : o)));
  const detach = runtime.attach({ send, showValues: () => undefined, saved: () => undefined });
  return { scripts, runtime, section, detach };
}

async function run(actions: readonly Action[], faults: readonly Fault[]) {
  // Each run starts on a quiet clock and a window of its own: nothing of an earlier run's pages (those of a
  // failed run were never detached) may fire into this one.
  vi.clearAllTimers();
  vi.stubGlobal('window', new EventTarget());
  const upstream = new FakeUpstream();
  const store = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  vi.stubGlobal('fetch', upstream.fetch);
  upstream.script(faults);
  let scripts = await loadPageScripts();
  let page: Page | null = openPage(scripts, upstream, SECTIONS[0]!);
  const lastTyped = new Map<string, FormValue>();
  const trace: string[] = [];

  /** Whenever the open page says saved, the Portal has every value typed. */
  const checkSaved = () => {
    if (page === null || page.runtime.saveState() !== 'saved') return;
    for (const [n, v] of lastTyped) {
      expect(sameAnswer(fieldForName(model, n)!, upstream.valueOf(n), v), `"${n}" said saved while the Portal has ${JSON.stringify(upstream.valueOf(n))}, not ${JSON.stringify(v)}\n${trace.join('\n')}`).toBe(true);
    }
  };

  for (const a of actions) {
    trace.push(JSON.stringify(a));
    switch (a.kind) {
      case 'type': {
        if (page === null) break;
        // Only what the page shows can be typed into: the open section, or any once the whole form is there.
        if (!page.runtime.complete && sectionOf(a.field) !== page.section) break;
        const value = TYPED[a.field]![a.pick % TYPED[a.field]!.length]!;
        lastTyped.set(a.field, value);
        page.runtime.typed(a.field, value);
        break;
      }
      case 'wait':
        await vi.advanceTimersByTimeAsync(a.ms);
        break;
      case 'upgrade':
        if (page !== null && !page.runtime.complete) page.runtime.upgrade(upstream.snapshot(), () => undefined);
        break;
      case 'leave':
        page?.detach();
        page = null;
        break;
      case 'open':
        if (page === null) page = openPage(scripts, upstream, a.section);
        break;
      case 'reload':
        // The page goes away as a reload does: pagehide, then nothing of its JavaScript runs again.
        window.dispatchEvent(new Event('pagehide'));
        scripts.dead = true;
        page?.detach();
        scripts = await loadPageScripts();
        page = openPage(scripts, upstream, a.section);
        break;
      case 'other': {
        upstream.write(a.field, OTHERS[a.field]![a.pick % OTHERS[a.field]!.length]!);
        break;
      }
      case 'connection':
        upstream.offline = !a.online;
        window.dispatchEvent(new Event(a.online ? 'online' : 'offline'));
        break;
      case 'refresh':
        // A live update: the page reads the whole form again (once it has it) and merges what is newer.
        if (page !== null && page.runtime.complete && upstream.revision > page.runtime.autosave.answersRevision) {
          page.runtime.refreshFrom(upstream.snapshot(), page.runtime.readMark());
        }
        break;
      case 'resolve': {
        const conflict = page?.runtime.autosave.conflicts[0];
        if (page !== null && conflict !== undefined) page.runtime.resolve(conflict.name, 'mine');
        break;
      }
    }
    await vi.advanceTimersByTimeAsync(0);
    checkSaved();
  }

  // The person comes back to the form, the connection holds, and they keep their answer in every conflict.
  trace.push('— settle —');
  upstream.offline = false;
  upstream.script([]);
  window.dispatchEvent(new Event('online'));
  if (page === null) page = openPage(scripts, upstream, SECTIONS[0]!);
  const settled = page;
  await vi.advanceTimersByTimeAsync(0);
  if (!settled.runtime.complete) settled.runtime.upgrade(upstream.snapshot(), () => undefined);
  for (let round = 0; round < 12; round++) {
    await vi.advanceTimersByTimeAsync(10_000);
    for (const c of settled.runtime.autosave.conflicts) settled.runtime.resolve(c.name, 'mine');
    checkSaved();
  }
  await vi.advanceTimersByTimeAsync(40_000);

  const held = new Map(settled.runtime.heldAnswers().map((h) => [h.name, h.reason]));
  for (const [n, v] of lastTyped) {
    const field = fieldForName(model, n)!;
    const inPortal = sameAnswer(field, upstream.valueOf(n), v);
    const heldOnScreen = settled.runtime.values[n] === v && held.has(n);
    expect(inPortal || heldOnScreen, `"${n}": typed ${JSON.stringify(v)}, the Portal has ${JSON.stringify(upstream.valueOf(n))}, the page shows ${JSON.stringify(settled.runtime.values[n])}${held.has(n) ? ' (held)' : ''}\n${trace.join('\n')}`).toBe(true);
    // What the form holds back as not valid never reaches the Portal in its place.
    if (!canSend(n, v)) expect(heldOnScreen, `"${n}" not valid, not held`).toBe(true);
  }
  expect(settled.runtime.saveState(), trace.join('\n')).not.toBe('saving');
  scripts.dead = true;
  settled.detach();
  vi.clearAllTimers();
}

withFakeBrowser();
afterEach(() => vi.unstubAllGlobals());

describe('property: whatever the person does, every value typed ends in the Portal or on screen as held', () => {
  it('edits, leaving, reloads, upgrades and network outcomes interleaved', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 40 }), fc.array(fault, { maxLength: 30 }), (actions, faults) => run(actions, faults)),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
