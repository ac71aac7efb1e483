import type { FileView } from '@/lib/bff/files';
import type { AnswerItem } from '@/lib/portal';
import type { RepeatableItemView } from '@/lib/bff/items';
import { groupFiles } from './file-values';
import { LocalChanges, type WrittenSince } from './local-changes';
import type { FormIndex } from './opening';
import {
  autosaveMachine,
  combinePersisted,
  computeVisibility,
  equalityFor,
  fieldForName,
  formItemOf,
  formModel,
  formStateFrom,
  formValidator,
  indexItems,
  isNameVisible,
  isQuestionVisible,
  itemIdOfName,
  progressOf,
  sendableCheck,
  updateVisibility,
  valuesFromItems,
  type AutosaveMachine,
  type AutosaveState,
  type ConflictChoice,
  type FormItem,
  type FormModel,
  type FormProgress,
  type FormValue,
  type FormValues,
  type PersistedAutosave,
  type UpstreamState,
  type VisibilityState,
  type WriteBatch,
} from '@/lib/forms';
import { afterNextPaint, whenIdle } from './scheduling';

/**
 * The live state of one open form, outside React: the values as typed (a flat mirror of the inputs),
 * repeatable items, attached files, visibility, and the autosave machine with its timer. Components
 * subscribe to the slice they show (useRuntime), so a keystroke re-renders nothing but what it changes.
 * No React here; it runs in the browser (timers, online/offline events, localStorage when there is one),
 * so it stays out of lib/forms' index, which the server imports too.
 */

export type SendOutcome =
  | { readonly type: 'success'; readonly answersRevision: number; readonly etag: string }
  | { readonly type: 'conflict'; readonly current: UpstreamState; readonly items?: { blockKey: string; items: RepeatableItemView[] } }
  | { readonly type: 'rejected'; readonly fieldErrors: Record<string, string> }
  | { readonly type: 'gone'; readonly itemId: string }
  | { readonly type: 'offline' }
  | { readonly type: 'error'; readonly message: string };

export interface RuntimeHooks {
  /** Runs one write (answers or one item) and says how it went. */
  send(batch: WriteBatch): Promise<SendOutcome>;
  /** Puts values into the inputs (merged from others, restored, or a conflict settled). */
  showValues(values: FormValues): void;
  /** After every successful write: e.g. refresh the Portal's progress. */
  saved(): void;
}

/** An answer kept on this device but not sent, and why: the form's own checks or the Portal (422) refused it. */
export interface HeldAnswer {
  readonly name: string;
  readonly reason: string;
}

/**
 * What the save status says, most pressing first: the connection, a failed write, a write under way, answers
 * held back because they are not valid, answers waiting for the person's decision (conflicts), then saved.
 */
export type SaveState = 'offline' | 'error' | 'saving' | 'invalid' | 'conflict' | 'saved' | 'idle';

const OFFLINE_PROBE_MS = 4_000;
const PROGRESS_DELAY_MS = 300;
/** Longest the device copy of the edits waits for an idle moment. */
const PERSIST_WITHIN_MS = 500;
const STORAGE_PREFIX = 'intake-form:';

/**
 * Pages of a form that were left (unmounted, as a link of the app or the back button does) while holding
 * edits they are still sending, by device key. A page of the same form opened meanwhile reads the device
 * copy only once that page is done with it, so the two never overwrite each other's edits.
 */
const leavingPages = new Map<string, { runtime: FormRuntime; done: Promise<void>; finish: () => void }>();

/** What the full snapshot brings to a runtime opened on one section (FormRuntime.upgrade). */
export interface UpgradeSnapshot {
  contract: Parameters<typeof formModel>[0];
  answers: { items: readonly AnswerItem[]; answers_revision: number; etag: string };
  items: readonly RepeatableItemView[];
  files: readonly FileView[];
}

/**
 * The runtime of a form as a page reads it: the whole snapshot, or an opening (one section and an index of
 * the rest) that `upgrade` completes. `model` may be passed when the caller made (and timed) it already.
 */
export function openRuntime(
  snapshot: UpgradeSnapshot & { opening?: { index: FormIndex; sectionKey: string } },
  storageKey: string | null,
  model: FormModel = formModel(snapshot.contract),
): FormRuntime {
  const state = formStateFrom(model, snapshot.answers.items, snapshot.items);
  return new FormRuntime(
    model,
    {
      values: state.values,
      items: state.items,
      files: snapshot.files,
      upstream: { values: state.values, answersRevision: snapshot.answers.answers_revision, etag: snapshot.answers.etag },
    },
    storageKey,
    snapshot.opening ?? null,
  );
}

export class FormRuntime {
  model: FormModel;
  validator: ReturnType<typeof formValidator>;
  private machine: AutosaveMachine;
  private hooks: RuntimeHooks | null = null;
  private listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private probe: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private idleWaiters: Array<() => void> = [];
  private progressCache: { version: number; progress: FormProgress } | null = null;
  private heldCache: { version: number; held: readonly HeldAnswer[] } | null = null;
  private canSend: (name: string, value: FormValue) => boolean;
  /** The upstream as the page read it: what edits kept on this device are merged with (restoreFromDevice). */
  private upstream: UpstreamState;
  private restored = false;
  /**
   * Opened on one section (the page sent that section and an index of the rest, lib/forms/opening): the
   * index's counts stand for the other sections until `upgrade` brings the whole contract and answers.
   */
  private opening: { index: FormIndex; sectionKey: string } | null;
  /** Whether the model is the whole contract's (not only the opening section's). */
  get complete(): boolean {
    return this.opening === null;
  }
  private completeWaiters: Array<() => void> = [];
  /**
   * Edits kept on this device wait to be brought back (until the whole contract is read, or a page of this
   * form that was just left is done sending): until then the status must not say saved.
   */
  private awaitingDevice = false;
  private restoreWaiters: Array<() => void> = [];
  /** Left by the page, still sending what it held (leave). */
  private leaving = false;
  /** Held answers that came back from this device's storage: their fields show why until edited. */
  private restoredHeld = new Set<string>();
  /** This page's item and file writes, so that a read started before one of them does not undo it. */
  private readonly local = new LocalChanges();

  values: Record<string, FormValue>;
  items: readonly FormItem[];
  visibility: VisibilityState;
  files: ReadonlyMap<string, readonly FileView[]>;
  autosave: AutosaveState;
  /** Bumped on every change, so selectors can tell whether to recompute. */
  version = 0;
  /**
   * Bumped a moment after a burst of changes: counting a 1,000-field form's progress on every keystroke
   * would cost more than the keystroke itself, and nobody reads the counts mid-word.
   */
  progressVersion = 0;
  private progressTimer: ReturnType<typeof setTimeout> | null = null;
  /** A write of the device copy waiting for an idle moment (persist); cancels it. */
  private persistLater: (() => void) | null = null;
  /** What a keystroke left for after its paint (typed), while it waits: a hidden page runs it at once. */
  private followUp: (() => void) | null = null;
  /** After a refused submit every field shows its problem, not only those the person touched. */
  submitAttempted = false;

  constructor(
    model: FormModel,
    init: { values: FormValues; items: readonly FormItem[]; files: readonly FileView[]; upstream: UpstreamState },
    private readonly storageKey: string | null,
    opening: { index: FormIndex; sectionKey: string } | null = null,
  ) {
    this.model = model;
    this.opening = opening;
    this.validator = formValidator(model);
    this.canSend = sendableCheck(model);
    this.machine = autosaveMachine({ equal: equalityFor(model), canSend: this.canSend });
    this.values = { ...init.values };
    this.items = init.items;
    this.files = groupFiles(init.files);
    for (const [name, list] of this.files) this.values[name] = list.map((f) => f.id);
    this.visibility = computeVisibility(model, this.values, this.items);
    // Storage is read only once the page is hydrated (attach): the server cannot see it, and a first
    // render that differed from the server's would be a hydration error (React #418).
    this.upstream = init.upstream;
    this.autosave = this.machine.init(init.upstream);
  }

  /** Brings back the edits kept on this device, merged with the upstream as the page read it. Once. */
  private restoreFromDevice() {
    if (this.restored) return;
    const before = this.storageKey === null ? undefined : leavingPages.get(this.storageKey);
    if (before !== undefined && before.runtime !== this) {
      this.awaitDevice();
      void before.done.then(() => {
        if (this.hooks !== null && !this.leaving) this.restoreFromDevice();
      });
      return;
    }
    const saved = this.readStorage();
    // Edits kept for other sections need the whole model: they come back at upgrade, and until then this
    // page writes nothing to storage (persist), so they cannot be overwritten.
    if (saved !== null && !this.complete) return this.awaitDevice();
    // Restored at attach, before anything happened on this page; or later, into what did.
    const late = this.autosave.touched || this.autosave.answersRevision !== this.upstream.answersRevision;
    this.restored = true;
    if (this.awaitingDevice) {
      this.awaitingDevice = false;
      for (const w of this.restoreWaiters.splice(0)) w();
      this.changed();
    }
    if (saved === null) return;
    const state = late ? this.machine.restoreInto(this.autosave, saved) : this.machine.restore(saved, this.upstream);
    // The restored edits (and my side of open conflicts) are what the inputs must show.
    const shown: Record<string, FormValue> = { ...state.pending };
    for (const c of state.conflicts) shown[c.name] = c.mine;
    for (const t of state.theirsApplied) shown[t.name] = t.theirs;
    Object.assign(this.values, shown);
    this.visibility = computeVisibility(this.model, this.values, this.items);
    this.autosave = state;
    this.persist();
    this.heldCache = null;
    this.restoredHeld = new Set(this.heldAnswers().map((h) => h.name));
    this.hooks?.showValues(shown);
    this.changed();
    this.kick();
  }

  private whenRestored(): Promise<void> {
    if (!this.awaitingDevice) return Promise.resolve();
    return new Promise((resolve) => this.restoreWaiters.push(resolve));
  }

  private awaitDevice() {
    if (this.awaitingDevice) return;
    this.awaitingDevice = true;
    this.changed();
  }

  // ---- subscriptions --------------------------------------------------------------------------

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private changed() {
    this.version++;
    this.notify();
    // Each change pushes the count back: it runs in the pause after a burst of typing, never between two
    // keystrokes of it (counting a large form and re-rendering the section list take milliseconds).
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = setTimeout(() => {
      this.progressTimer = null;
      this.progressVersion = this.version;
      this.notify();
    }, PROGRESS_DELAY_MS);
  }

  private notify() {
    for (const l of [...this.listeners]) l();
  }

  attach(hooks: RuntimeHooks): () => void {
    this.hooks = hooks;
    this.stayAfterLeaving();
    this.restoreFromDevice();
    const online = () => this.setAutosave(this.machine.onOnline(this.autosave), true);
    const offline = () => this.setAutosave(this.machine.onOffline(this.autosave), false);
    // The device copy is written when the page is idle; a page going away writes it at once.
    const hidden = () => {
      if (document.visibilityState !== 'hidden') return;
      this.followUp?.(); // a hidden page draws no frame
      this.persistNow();
    };
    const leaving = () => this.persistNow();
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    window.addEventListener('pagehide', leaving);
    // visibilitychange bubbles from the document to the window.
    window.addEventListener('visibilitychange', hidden);
    if (typeof navigator !== 'undefined' && navigator.onLine === false) offline();
    this.kick();
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      window.removeEventListener('pagehide', leaving);
      window.removeEventListener('visibilitychange', hidden);
      if (this.progressTimer) clearTimeout(this.progressTimer);
      this.progressTimer = null;
      this.leave(hooks);
    };
  }

  /**
   * The page left the form (a link of the app, the back button): nobody waits for the quiet time after the
   * last keystroke any more, so what it holds is sent now, and kept on the device until the Portal has it.
   * A failed or refused write ends it (no retries without a page); the device copy then brings it back.
   */
  private leave(hooks: RuntimeHooks) {
    this.followUp?.(); // a keystroke whose frame never came
    if (this.timer) clearTimeout(this.timer);
    if (this.probe) clearTimeout(this.probe);
    this.timer = this.probe = null;
    this.persistNow();
    this.hooks = { send: hooks.send, showValues: () => undefined, saved: () => undefined };
    this.leaving = true;
    if (this.storageKey !== null && this.restored) {
      let finish = () => {};
      const done = new Promise<void>((resolve) => (finish = resolve));
      leavingPages.set(this.storageKey, { runtime: this, done, finish });
    }
    this.kick();
  }

  /** Done sending after the page left: the device copy holds whatever is still not saved. */
  private doneLeaving() {
    this.persistNow();
    this.hooks = null;
    this.settleWaiters(true);
    this.releaseLeaving();
  }

  private releaseLeaving() {
    const entry = this.storageKey === null ? undefined : leavingPages.get(this.storageKey);
    if (entry?.runtime !== this) return;
    leavingPages.delete(this.storageKey as string);
    entry.finish();
  }

  /** Attached again after leaving (React runs effects twice in development): back to normal. */
  private stayAfterLeaving() {
    if (!this.leaving) return;
    this.leaving = false;
    this.releaseLeaving();
  }

  // ---- reads ----------------------------------------------------------------------------------

  isVisible(schemaKey: string, itemId: string | null): boolean {
    return isQuestionVisible(this.visibility, schemaKey, itemId);
  }

  nameVisible(name: string): boolean {
    return isNameVisible(this.visibility, name);
  }

  childrenOf(blockKey: string, parentItemId: string | null): readonly FormItem[] {
    return indexItems(this.items).childrenOf(blockKey, parentItemId);
  }

  filesOf(name: string): readonly FileView[] {
    return this.files.get(name) ?? NO_FILES;
  }

  /** Per-section completion and what is missing; computed at most once per change. */
  progress(): FormProgress {
    if (this.progressCache?.version !== this.version) {
      const live = progressOf(this.model, this.values, this.visibility);
      this.progressCache = { version: this.version, progress: this.opening === null ? live : withIndex(live, this.opening) };
    }
    return this.progressCache.progress;
  }

  /** Resolves once the runtime has the whole contract (at once when it was opened with it). */
  whenComplete(): Promise<void> {
    if (this.complete) return Promise.resolve();
    return new Promise((resolve) => this.completeWaiters.push(resolve));
  }

  /**
   * The whole snapshot, read after the page became interactive on one section: the model becomes the
   * whole contract's; answers, items and files the opening did not carry come in as the upstream holds
   * them (the base of later merges), while what the opening carried keeps what the inputs show. When the
   * upstream moved on in between, the opening section is merged like any refresh. `show` puts the values
   * that came in into the form (other sections' inputs) before anything is merged or restored over them;
   * then edits kept on this device come back.
   */
  upgrade(full: UpgradeSnapshot, show: (added: FormValues) => void, model: FormModel = formModel(full.contract)) {
    if (this.complete) return;
    const state = formStateFrom(model, full.answers.items, full.items);
    const files = groupFiles(full.files);
    // What the opening's model knows stays as it is (and is merged below when the upstream moved on).
    const opening = this.model;
    const known = (name: string) => fieldForName(opening, name) !== undefined;
    const added: Record<string, FormValue> = {};
    for (const [name, value] of Object.entries(state.values)) if (!known(name)) added[name] = value;
    const addedFiles: Record<string, FormValue> = {};
    for (const [name, list] of files) if (!known(name)) addedFiles[name] = list.map((f) => f.id);

    this.model = model;
    this.validator = formValidator(model);
    this.canSend = sendableCheck(model);
    this.machine = autosaveMachine({ equal: equalityFor(model), canSend: this.canSend });
    Object.assign(this.values, added, addedFiles);
    this.items = [...this.items, ...state.items.filter((i) => !opening.groupByKey.has(i.blockKey))];
    const mergedFiles = new Map(this.files);
    for (const [name, list] of files) if (!known(name)) mergedFiles.set(name, list);
    this.files = mergedFiles;
    this.upstream = { ...this.upstream, values: { ...added, ...this.upstream.values } };
    this.autosave = { ...this.autosave, server: { ...added, ...this.autosave.server } };
    this.opening = null;
    this.visibility = computeVisibility(this.model, this.values, this.items);
    this.heldCache = null;
    show(added);
    // Only a newer read can tell the opening section anything (an older one was overtaken by this page's saves).
    if (full.answers.answers_revision > this.autosave.answersRevision) this.refreshFrom(full);
    else this.changed();
    if (this.hooks) {
      this.restoreFromDevice();
      this.kick();
    }
    for (const w of this.completeWaiters.splice(0)) w();
  }

  conflictOf(name: string) {
    return this.autosave.conflicts.find((c) => c.name === name);
  }

  /**
   * Edits kept but not sent, with the reason: refused by the Portal (422), or not valid by the contract, so
   * autosave holds them (sendableCheck). Computed at most once per change.
   */
  heldAnswers(): readonly HeldAnswer[] {
    if (this.heldCache?.version === this.version) return this.heldCache.held;
    const { pending, rejected } = this.autosave;
    const held: HeldAnswer[] = [];
    for (const [name, value] of Object.entries(pending)) {
      const refused = rejected[name];
      if (refused !== undefined) held.push({ name, reason: refused });
      else if (!this.canSend(name, value)) {
        const reason = this.validator.validateField(name, value, true);
        // Not sendable but nothing to say (a read-only or file field): not something the person can fix.
        if (reason !== null) held.push({ name, reason });
      }
    }
    // The same list as before stays the same object: its subscribers (the save status) skip the keystroke.
    const before = this.heldCache?.held;
    const same = before !== undefined && before.length === held.length && held.every((h, i) => h.name === before[i]!.name && h.reason === before[i]!.reason);
    this.heldCache = { version: this.version, held: same ? before : held };
    return this.heldCache.held;
  }

  /** Why a field restored from this device is not saved; null once it is edited or when it was sendable. */
  restoredReason(name: string): string | null {
    if (!this.restoredHeld.has(name)) return null;
    return this.heldAnswers().find((h) => h.name === name)?.reason ?? null;
  }

  saveState(): SaveState {
    const s = this.autosave;
    if (s.status === 'offline' || s.status === 'error' || s.status === 'saving') return s.status;
    if (this.heldAnswers().length > 0) return 'invalid';
    if (s.conflicts.length > 0) return 'conflict';
    // Edits kept on this device will be sent once they are brought back: nothing is saved yet.
    if (this.awaitingDevice) return 'saving';
    return s.status;
  }

  // ---- edits ----------------------------------------------------------------------------------

  /** The person changed a field. */
  edit(name: string, value: FormValue) {
    this.setAutosave(this.editState(name, value));
  }

  /**
   * The person typed into (or picked in) a field. The state follows at once (a submit, a merge or the page
   * going away just after sees the edit); what only shows it (subscribers re-rendering, the autosave timer,
   * the device copy) runs in the task after the frame that paints the character: the keystroke reaches the
   * screen first. Unless a question appears or goes: that changes the page with the keystroke, as an edit does.
   */
  typed(name: string, value: FormValue) {
    const visibility = this.visibility;
    const next = this.editState(name, value);
    if (this.visibility !== visibility) return this.setAutosave(next);
    if (next === this.autosave) return;
    this.autosave = next;
    this.version++;
    if (this.followUp) return;
    const followUp = () => {
      if (this.followUp !== followUp) return;
      this.followUp = null;
      this.persist();
      this.changed();
      this.kick();
    };
    this.followUp = followUp;
    afterNextPaint(followUp);
  }

  /** Values and visibility after an edit, and the autosave state it leads to (for the caller to set). */
  private editState(name: string, value: FormValue): AutosaveState {
    this.restoredHeld.delete(name);
    this.values[name] = value;
    this.visibility = updateVisibility(this.visibility, this.values, [name]);
    return this.machine.edit(this.autosave, name, value, Date.now());
  }

  resolve(name: string, choice: ConflictChoice) {
    const conflict = this.conflictOf(name);
    if (!conflict) return;
    const value = choice === 'mine' ? conflict.mine : choice === 'theirs' ? conflict.theirs : choice.value;
    this.values[name] = value;
    this.visibility = updateVisibility(this.visibility, this.values, [name]);
    this.hooks?.showValues({ [name]: value });
    this.setAutosave(this.machine.resolve(this.autosave, name, choice));
  }

  markSubmitAttempted() {
    if (this.submitAttempted) return;
    this.submitAttempted = true;
    this.changed();
  }

  acknowledgeTheirs() {
    this.setAutosave(this.machine.acknowledgeTheirs(this.autosave));
  }

  dismissOrphaned() {
    this.setAutosave(this.machine.dismissOrphaned(this.autosave));
  }

  retryNow() {
    this.setAutosave(this.machine.retry(this.autosave));
  }

  /**
   * A fresh read of the whole application (someone else saved: a live update, an accepted Autofill
   * suggestion): items others added or removed appear or go, files follow the upstream, and answers
   * are merged exactly like after a 412 — theirs shown, mine kept, both-changed asked.
   */
  refreshFrom(
    snapshot: { answers: { items: readonly AnswerItem[]; answers_revision: number; etag: string }; items: readonly RepeatableItemView[]; files: readonly FileView[] },
    readMark = 0,
  ) {
    // What this page wrote after the read started stays as this page knows it (items, files, their answers).
    const since = this.local.since(readMark);
    const byGroup = new Map<string, RepeatableItemView[]>();
    for (const g of this.model.groups) byGroup.set(g.blockKey, []);
    for (const item of snapshot.items) byGroup.get(item.block_key)?.push(item);
    for (const [blockKey, views] of byGroup) this.applyGroupItems(blockKey, views, since);
    const files = since.filesOver(groupFiles(snapshot.files));
    for (const name of new Set([...this.files.keys(), ...files.keys()])) this.values[name] = (files.get(name) ?? []).map((f) => f.id);
    this.files = files;
    const state = formStateFrom(this.model, snapshot.answers.items, snapshot.items);
    const fileNames = new Set(files.keys());
    const values: Record<string, FormValue> = {};
    for (const [name, value] of Object.entries(state.values)) {
      if (!fileNames.has(name) && !since.itemsRemoved.has(itemIdOfName(name) ?? '')) values[name] = value;
    }
    // An item the read predates holds, upstream, what this page last knew of it: not "cleared by someone".
    for (const [name, value] of Object.entries(this.autosave.server)) {
      if (since.itemsAdded.has(itemIdOfName(name) ?? '') && !Object.hasOwn(values, name)) values[name] = value;
    }
    const next = this.machine.refresh(this.autosave, { values, answersRevision: snapshot.answers.answers_revision, etag: snapshot.answers.etag });
    this.applyMerge(next);
    this.setAutosave(next);
    this.local.forgetUpTo(readMark);
    this.visibility = computeVisibility(this.model, this.values, this.items);
    this.changed();
  }

  /** Taken when a read of the form starts; refreshFrom and replaceGroupItems are told it with what was read. */
  readMark(): number {
    return this.local.mark();
  }

  // ---- items and files ------------------------------------------------------------------------

  addItem(view: RepeatableItemView, revision: { answersRevision: number; etag: string; basedOn: number }) {
    const fresh = valuesFromItems(this.model, [view]);
    Object.assign(this.values, fresh);
    this.items = [...this.items, formItemOf(view)];
    this.local.itemAdded(view.item_id);
    this.visibility = computeVisibility(this.model, this.values, this.items);
    this.adoptRevision(revision);
    this.changed();
  }

  removeItems(itemIds: readonly string[], revision: { answersRevision: number; etag: string; basedOn: number } | null) {
    const gone = new Set(itemIds);
    this.items = this.items.filter((i) => !gone.has(i.itemId));
    this.local.itemsRemoved(itemIds);
    let state = this.autosave;
    for (const id of itemIds) state = this.machine.forgetItem(state, id);
    for (const name of Object.keys(this.values)) {
      if (gone.has(itemIdOfName(name) ?? '')) delete this.values[name];
    }
    this.visibility = computeVisibility(this.model, this.values, this.items);
    this.autosave = state;
    if (revision !== null) this.adoptRevision(revision);
    this.persist();
    this.changed();
  }

  /**
   * The items of a group as a read started at `readMark` found them (after a 412, or a fresh read): others
   * may have added or removed some. Items this page added or removed after the read started stay so.
   */
  replaceGroupItems(blockKey: string, views: readonly RepeatableItemView[], readMark = 0) {
    this.applyGroupItems(blockKey, views, this.local.since(readMark));
  }

  private applyGroupItems(blockKey: string, views: readonly RepeatableItemView[], since: WrittenSince) {
    const known = new Set(this.items.map((i) => i.itemId));
    const now = new Set(views.map((v) => v.item_id));
    const added = views.filter((v) => !known.has(v.item_id) && !since.itemsRemoved.has(v.item_id));
    const removed = this.items.filter((i) => i.blockKey === blockKey && !now.has(i.itemId) && !since.itemsAdded.has(i.itemId)).map((i) => i.itemId);
    if (added.length === 0 && removed.length === 0) return;
    Object.assign(this.values, valuesFromItems(this.model, added));
    this.items = [...this.items.filter((i) => !removed.includes(i.itemId)), ...added.map(formItemOf)];
    let state = this.autosave;
    for (const id of removed) state = this.machine.onItemGone(state, id);
    this.autosave = state;
    this.visibility = computeVisibility(this.model, this.values, this.items);
    this.persist();
    this.changed();
  }

  /**
   * A write outside autosave (item add/remove, upload) moved the answers revision. When nobody else wrote
   * in between (the reply is exactly one revision on), autosave can go on with the new ETag; otherwise it
   * keeps the old one and its next write meets a 412 and merges, as it should.
   */
  private adoptRevision(r: { answersRevision: number; etag: string; basedOn: number }) {
    const s = this.autosave;
    if (s.inFlight === null && s.answersRevision === r.basedOn && r.answersRevision === r.basedOn + 1) {
      this.autosave = { ...s, answersRevision: r.answersRevision, etag: r.etag };
    }
  }

  fileAdded(name: string, file: FileView) {
    const list = [...this.filesOf(name).filter((f) => f.id !== file.id), file];
    this.local.fileAdded(name, file);
    this.setFiles(name, list);
  }

  fileRemoved(name: string, fileId: string) {
    const file = this.filesOf(name).find((f) => f.id === fileId);
    if (file) this.local.fileRemoved(name, file);
    this.setFiles(name, this.filesOf(name).filter((f) => f.id !== fileId));
  }

  private setFiles(name: string, list: readonly FileView[]) {
    const files = new Map(this.files);
    files.set(name, list);
    this.files = files;
    this.values[name] = list.map((f) => f.id);
    this.visibility = updateVisibility(this.visibility, this.values, [name]);
    this.changed();
  }

  // ---- autosave -------------------------------------------------------------------------------

  /**
   * Something is in flight or waits to be sent. Held answers (refused, or not valid) wait for the person, not
   * for the network: counting them would keep submit waiting for a save that never comes.
   */
  private hasWork(s: AutosaveState): boolean {
    if (s.inFlight !== null) return true;
    for (const [name, value] of Object.entries(s.pending)) {
      if (!Object.hasOwn(s.rejected, name) && this.canSend(name, value)) return true;
    }
    return false;
  }

  /** Resolves once nothing is waiting to be sent or in flight (conflicts and refusals aside). */
  whenSettled(): Promise<void> {
    const s = this.autosave;
    if (this.awaitingDevice) return this.whenRestored().then(() => this.whenSettled());
    if (!this.hasWork(s) || !s.online) return Promise.resolve();
    this.setAutosave({ ...s, sendNow: true });
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private setAutosave(next: AutosaveState, kick = true) {
    if (next === this.autosave) return;
    this.autosave = next;
    this.persist();
    this.changed();
    if (kick) this.kick();
  }

  private kick() {
    if (this.running || !this.hooks) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    // A page that was left waits for no quiet time: whatever is sendable goes now.
    const from = this.leaving && !this.autosave.sendNow && this.hasWork(this.autosave) ? { ...this.autosave, sendNow: true } : this.autosave;
    const { state, send, wakeAt } = this.machine.tick(from, Date.now());
    if (state !== this.autosave) {
      this.autosave = state;
      this.changed();
    }
    if (send) void this.run(send);
    else if (this.leaving) this.doneLeaving();
    else if (wakeAt !== null) this.timer = setTimeout(() => this.kick(), Math.max(0, wakeAt - Date.now()));
    else this.settleWaiters();
  }

  private settleWaiters(force = false) {
    const s = this.autosave;
    if (!force && this.hasWork(s) && s.online && s.lastError === null) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async run(batch: WriteBatch) {
    const hooks = this.hooks;
    if (!hooks) return;
    this.running = true;
    let outcome: SendOutcome;
    // A 412's current items are read after this write was sent.
    const readMark = this.local.mark();
    try {
      outcome = await hooks.send(batch);
    } catch (e) {
      outcome = { type: 'error', message: e instanceof Error ? e.message : 'Saving failed' };
    }
    this.running = false;
    const m = this.machine;
    const s = this.autosave;
    switch (outcome.type) {
      case 'success':
        this.setAutosave(m.onSuccess(s, batch.id, outcome), false);
        hooks.saved();
        break;
      case 'conflict': {
        if (outcome.items) this.replaceGroupItems(outcome.items.blockKey, outcome.items.items, readMark);
        const next = m.onConflict(this.autosave, batch.id, outcome.current);
        this.applyMerge(next);
        this.setAutosave(next, false);
        break;
      }
      case 'rejected':
        this.setAutosave(m.onRejected(s, batch.id, outcome.fieldErrors), false);
        break;
      case 'gone':
        this.removeItems([outcome.itemId], null);
        this.setAutosave(m.onItemGone(this.autosave, outcome.itemId), false);
        break;
      case 'offline':
        this.setAutosave(m.onOffline(s), false);
        if (!this.leaving) this.scheduleProbe();
        break;
      case 'error':
        this.setAutosave(m.onError(s, batch.id, outcome.message, Date.now()), false);
        break;
    }
    this.kick();
  }

  /** Offline because a request failed while the browser thinks it is online: try again in a while. */
  private scheduleProbe() {
    if (this.probe) clearTimeout(this.probe);
    this.probe = setTimeout(() => {
      this.probe = null;
      if (!this.autosave.online && (typeof navigator === 'undefined' || navigator.onLine !== false)) {
        this.setAutosave(this.machine.onOnline(this.autosave));
      }
    }, OFFLINE_PROBE_MS);
  }

  /** Values the merge took from the upstream go into the inputs; mine stay as typed. */
  private applyMerge(next: AutosaveState) {
    const shown: Record<string, FormValue> = {};
    for (const t of next.theirsApplied) {
      if (this.values[t.name] !== t.theirs) shown[t.name] = t.theirs;
    }
    if (Object.keys(shown).length === 0) return;
    Object.assign(this.values, shown);
    this.visibility = updateVisibility(this.visibility, this.values, Object.keys(shown));
    this.hooks?.showValues(shown);
  }

  // ---- persistence ----------------------------------------------------------------------------

  private readStorage(): PersistedAutosave | null {
    if (this.storageKey === null || typeof localStorage === 'undefined') return null;
    try {
      const raw = localStorage.getItem(STORAGE_PREFIX + this.storageKey);
      const parsed = raw ? (JSON.parse(raw) as PersistedAutosave) : null;
      return parsed && parsed.version === 1 ? parsed : null;
    } catch {
      return null;
    }
  }

  /**
   * Keeps the edits on this device once the page is idle (after the keystroke's paint: serializing the
   * autosave state into localStorage is synchronous), at most one write per idle moment; pagehide,
   * a hidden tab and detach write at once, so a reload or a closed tab loses nothing.
   */
  private persist() {
    if (this.storageKey === null || typeof localStorage === 'undefined' || !this.restored || this.persistLater !== null) return;
    this.persistLater = whenIdle(() => {
      this.persistLater = null;
      this.persistNow();
    }, PERSIST_WITHIN_MS);
  }

  private persistNow() {
    this.persistLater?.();
    this.persistLater = null;
    if (this.storageKey === null || typeof localStorage === 'undefined') return;
    if (!this.restored && !this.awaitingDevice) return;
    let saved = this.machine.persist(this.autosave);
    // The device copy is not brought back yet (persist leaves it alone till then): a page going away adds
    // its own edits to it rather than lose them, and replaces nothing in it.
    if (!this.restored) {
      if (isEmptyCopy(saved)) return;
      const stored = this.readStorage();
      if (stored !== null) saved = combinePersisted(stored, saved);
    }
    const empty = isEmptyCopy(saved);
    try {
      if (empty) localStorage.removeItem(STORAGE_PREFIX + this.storageKey);
      else localStorage.setItem(STORAGE_PREFIX + this.storageKey, JSON.stringify(saved));
    } catch {
      // Storage full or refused (private mode): the edits still live in this page and keep saving.
    }
  }

  /** After submit nothing is left to keep on this device. */
  clearStorage() {
    this.persistLater?.();
    this.persistLater = null;
    if (this.storageKey !== null && typeof localStorage !== 'undefined') localStorage.removeItem(STORAGE_PREFIX + this.storageKey);
  }
}

const NO_FILES: readonly FileView[] = Object.freeze([]);

const isEmptyCopy = (saved: PersistedAutosave) =>
  Object.keys(saved.edits).length === 0 && saved.conflicts.length === 0 && Object.keys(saved.orphaned).length === 0;


/**
 * Progress while only the opening section is in the model: that section's counts are live, the others'
 * are the server's (nobody can change them before the upgrade but through a live refresh, which upgrades).
 */
function withIndex(live: FormProgress, { index, sectionKey }: { index: FormIndex; sectionKey: string }): FormProgress {
  const here = live.sections.find((s) => s.sectionKey === sectionKey);
  const before = index.sections.find((s) => s.sectionKey === sectionKey);
  const sections = index.sections.map((s) => (s.sectionKey === sectionKey && here ? here : s));
  const answered = index.answered - (before?.answered ?? 0) + (here?.answered ?? 0);
  const total = index.total - (before?.total ?? 0) + (here?.total ?? 0);
  const percent = total === 0 ? 100 : Math.floor((answered * 100) / total);
  return { sections, answered, total, percent, missing: live.missing.filter((m) => m.sectionKey === sectionKey) };
}
