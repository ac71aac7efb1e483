import type { FileView } from '@/lib/bff/files';
import type { RepeatableItemView } from '@/lib/bff/items';
import {
  formModel,
  formStateFrom,
  isNameVisible,
  isQuestionVisible,
  progressOf,
  updateVisibility,
  type AutosaveState,
  type ConflictChoice,
  type FormItem,
  type FormModel,
  type FormProgress,
  type FormValue,
  type FormValues,
  type UpstreamState,
  type WriteBatch,
} from '@/lib/forms';
import type { ItemWriteRevision, ItemWritesTarget } from '@/lib/forms/item-writes-target';
import { AutosaveLoop, type SendOutcome } from './autosave-loop';
import { DeviceCopy } from './device-copy';
import { ItemsAndFiles } from './items-and-files';
import { Merges, type FreshRead } from './merges';
import { listenToPage } from './page-events';
import { Opening, wholeFormAdds, type SectionOpening, type UpgradeSnapshot } from './runtime-opening';
import { RuntimeState, type RuntimeInit } from './runtime-state';
import { HeldAnswers, type HeldAnswer, type SaveState } from './save-state';
import { afterNextPaint } from './scheduling';

export type { SendOutcome } from './autosave-loop';
export type { HeldAnswer, SaveState } from './save-state';
export type { UpgradeSnapshot } from './runtime-opening';

/**
 * The live state of one open form in the browser, outside React: what components hold and subscribe to. It
 * puts together the parts that each do one job (this folder): the state and its subscribers (runtime-state),
 * the autosave loop (autosave-loop) and its network calls (transport), the copy of the edits kept on this
 * device (device-copy), opening on one section and the upgrade to the whole form (runtime-opening), items and
 * files (items-and-files), merges and conflicts (merges), and what the save status may say (save-state).
 * Browser-only: timers, online/offline and page events, localStorage when there is one.
 */

export interface RuntimeHooks {
  /** Runs one write (answers or one item) and says how it went. */
  send(batch: WriteBatch): Promise<SendOutcome>;
  /** Puts values into the inputs (merged from others, restored, or a conflict settled). */
  showValues(values: FormValues): void;
  /** After every successful write: e.g. refresh the Portal's progress. */
  saved(): void;
}

/**
 * The runtime of a form as a page reads it: the whole snapshot, or an opening (one section and an index of
 * the rest) that `upgrade` completes. `model` may be passed when the caller made (and timed) it already.
 */
export function openRuntime(
  snapshot: UpgradeSnapshot & { opening?: SectionOpening },
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

export class FormRuntime extends RuntimeState implements ItemWritesTarget {
  private hooks: RuntimeHooks | null = null;
  /** The upstream as the page read it: what edits kept on this device are merged with (restoreFromDevice). */
  private upstream: UpstreamState;
  private readonly opening: Opening;
  private readonly device: DeviceCopy;
  private readonly loop: AutosaveLoop;
  private readonly itemsAndFiles: ItemsAndFiles;
  private readonly merges: Merges;
  private readonly heldAnswersOf: HeldAnswers;
  private progressCache: { version: number; progress: FormProgress } | null = null;
  /** What a keystroke left for after its paint (typed), while it waits: a hidden page runs it at once. */
  private followUp: (() => void) | null = null;
  /** After a refused submit every field shows its problem, not only those the person touched. */
  submitAttempted = false;

  constructor(model: FormModel, init: RuntimeInit, storageKey: string | null, opening: SectionOpening | null = null) {
    super(model, init);
    // Storage is read only once the page is hydrated (attach): the server cannot see it, and a first
    // render that differed from the server's would be a hydration error (React #418).
    this.upstream = init.upstream;
    this.opening = new Opening(opening);
    this.device = new DeviceCopy(storageKey, () => this.machine.persist(this.autosave));
    this.heldAnswersOf = new HeldAnswers(this);
    this.itemsAndFiles = new ItemsAndFiles(this, () => this.persist());
    const host = {
      state: this as RuntimeState,
      itemsAndFiles: this.itemsAndFiles,
      show: (values: FormValues) => this.hooks?.showValues(values),
      setAutosave: (next: AutosaveState, kick?: boolean) => this.setAutosave(next, kick),
    };
    this.merges = new Merges(host);
    this.loop = new AutosaveLoop({
      ...host,
      conflict: (batchId, outcome, readMark) => this.merges.conflict(batchId, outcome, readMark),
      gone: (itemId) => {
        this.itemsAndFiles.removeItems([itemId], null);
        this.setAutosave(this.machine.onItemGone(this.autosave, itemId), false);
      },
      readMark: () => this.itemsAndFiles.readMark(),
      left: () => this.doneLeaving(),
    });
  }

  /** Whether the model is the whole contract's (not only the opening section's). */
  get complete(): boolean {
    return this.opening.complete;
  }

  // ---- the page ----------------------------------------------------------------------------------

  /** The page is interactive: edits kept on the device come back, autosave runs, page events are heard. */
  attach(hooks: RuntimeHooks): () => void {
    this.hooks = hooks;
    this.loop.start(hooks.send, hooks.saved);
    // Attached again after leaving (React runs effects twice in development): nothing more to hand over.
    this.device.doneLeaving();
    this.restoreFromDevice();
    const unlisten = listenToPage({
      online: () => this.setAutosave(this.machine.onOnline(this.autosave), true),
      offline: () => this.setAutosave(this.machine.onOffline(this.autosave), false),
      // The device copy is written when the page is idle; a page going away or hidden writes it at once.
      hidden: () => {
        this.followUp?.(); // a hidden page draws no frame
        this.persistNow();
      },
      leaving: () => this.persistNow(),
    });
    this.loop.kick();
    return () => {
      unlisten();
      this.stopProgress();
      this.leave();
    };
  }

  /**
   * The page left the form (a link of the app, the back button): nobody waits for the quiet time after the
   * last keystroke any more, so what it holds is sent now, and kept on the device until the Portal has it.
   * A failed or refused write ends it (no retries without a page); the device copy then brings it back.
   */
  private leave() {
    this.followUp?.(); // a keystroke whose frame never came
    this.persistNow();
    this.hooks = null;
    this.device.startLeaving();
    this.loop.leave();
  }

  /** Done sending after the page left: the device copy holds whatever is still not saved. */
  private doneLeaving() {
    this.persistNow();
    this.loop.stop();
    this.device.doneLeaving();
  }

  /** Brings back the edits kept on this device, merged with the upstream as the page read it. Once. */
  private restoreFromDevice() {
    const { device } = this;
    if (device.restored) return;
    // A page of this form that was just left may still be sending: its copy is final once it is done.
    const before = device.leftBefore();
    if (before !== null) {
      this.awaitDevice();
      void before.then(() => {
        if (this.hooks !== null) this.restoreFromDevice();
      });
      return;
    }
    const saved = device.read();
    // Edits kept for other sections need the whole model: they come back at upgrade, and until then this
    // page writes nothing over them (DeviceCopy.persist).
    if (saved !== null && !this.complete) return this.awaitDevice();
    // Restored at attach, before anything happened on this page; or later, into what did.
    const late = this.autosave.touched || this.autosave.answersRevision !== this.upstream.answersRevision;
    if (device.markRestored()) this.changed();
    if (saved === null) return;
    const state = late ? this.machine.restoreInto(this.autosave, saved) : this.machine.restore(saved, this.upstream);
    // The restored edits (and my side of open conflicts) are what the inputs must show.
    const shown: Record<string, FormValue> = { ...state.pending };
    for (const c of state.conflicts) shown[c.name] = c.mine;
    for (const t of state.theirsApplied) shown[t.name] = t.theirs;
    Object.assign(this.values, shown);
    this.recomputeVisibility();
    this.autosave = state;
    this.persist();
    this.heldAnswersOf.markRestored();
    this.hooks?.showValues(shown);
    this.changed();
    this.loop.kick();
  }

  private awaitDevice() {
    if (this.device.await()) this.changed();
  }

  // ---- reads -------------------------------------------------------------------------------------

  isVisible(schemaKey: string, itemId: string | null): boolean {
    return isQuestionVisible(this.visibility, schemaKey, itemId);
  }

  nameVisible(name: string): boolean {
    return isNameVisible(this.visibility, name);
  }

  childrenOf(blockKey: string, parentItemId: string | null): readonly FormItem[] {
    return this.itemsAndFiles.childrenOf(blockKey, parentItemId);
  }

  filesOf(name: string): readonly FileView[] {
    return this.itemsAndFiles.filesOf(name);
  }

  /** Per-section completion and what is missing; computed at most once per change. */
  progress(): FormProgress {
    if (this.progressCache?.version !== this.version) {
      this.progressCache = { version: this.version, progress: this.opening.progress(progressOf(this.model, this.values, this.visibility)) };
    }
    return this.progressCache.progress;
  }

  conflictOf(name: string) {
    return this.autosave.conflicts.find((c) => c.name === name);
  }

  /** Edits kept but not sent, with the reason (save-state). */
  heldAnswers(): readonly HeldAnswer[] {
    return this.heldAnswersOf.held();
  }

  /** Why a field restored from this device is not saved; null once it is edited or when it was sendable. */
  restoredReason(name: string): string | null {
    return this.heldAnswersOf.restoredReason(name);
  }

  saveState(): SaveState {
    return this.heldAnswersOf.status(this.device.awaiting);
  }

  /** Resolves once the runtime has the whole contract (at once when it was opened with it). */
  whenComplete(): Promise<void> {
    return this.opening.whenComplete();
  }

  /** Resolves once nothing is waiting to be sent or in flight (conflicts and refusals aside). */
  whenSettled(): Promise<void> {
    if (this.device.awaiting) return this.device.whenRestored().then(() => this.whenSettled());
    return this.loop.whenSettled();
  }

  // ---- opening on one section --------------------------------------------------------------------

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
    const adds = wholeFormAdds(this.model, full, model, this.files);
    this.useModel(model);
    Object.assign(this.values, adds.answers, adds.fileValues);
    this.items = [...this.items, ...adds.items];
    this.files = adds.files;
    this.upstream = { ...this.upstream, values: { ...adds.answers, ...this.upstream.values } };
    this.autosave = { ...this.autosave, server: { ...adds.answers, ...this.autosave.server } };
    this.opening.completed();
    this.recomputeVisibility();
    this.heldAnswersOf.forget();
    show(adds.answers);
    // Only a newer read can tell the opening section anything (an older one was overtaken by this page's saves).
    if (full.answers.answers_revision > this.autosave.answersRevision) this.refreshFrom(full);
    else this.changed();
    if (this.hooks) {
      this.restoreFromDevice();
      this.loop.kick();
    }
    this.opening.release();
  }

  // ---- edits -------------------------------------------------------------------------------------

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
      this.loop.kick();
    };
    this.followUp = followUp;
    afterNextPaint(followUp);
  }

  /** Values and visibility after an edit, and the autosave state it leads to (for the caller to set). */
  private editState(name: string, value: FormValue): AutosaveState {
    this.heldAnswersOf.edited(name);
    this.values[name] = value;
    this.visibility = updateVisibility(this.visibility, this.values, [name]);
    return this.machine.edit(this.autosave, name, value, Date.now());
  }

  resolve(name: string, choice: ConflictChoice) {
    this.merges.resolve(name, choice);
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

  private setAutosave(next: AutosaveState, kick = true) {
    if (next === this.autosave) return;
    this.autosave = next;
    this.persist();
    this.changed();
    if (kick) this.loop.kick();
  }

  // ---- others' writes, items and files -----------------------------------------------------------

  /** A fresh read of the whole application, started at `readMark`, merged like a 412 (merges). */
  refreshFrom(snapshot: FreshRead, readMark = 0) {
    this.merges.refreshFrom(snapshot, readMark);
  }

  /** Taken when a read of the form starts; refreshFrom and replaceGroupItems are told it with what was read. */
  readMark(): number {
    return this.itemsAndFiles.readMark();
  }

  addItem(view: RepeatableItemView, revision: ItemWriteRevision) {
    this.itemsAndFiles.addItem(view, revision);
  }

  removeItems(itemIds: readonly string[], revision: ItemWriteRevision | null) {
    this.itemsAndFiles.removeItems(itemIds, revision);
  }

  /**
   * The items of a group as a read started at `readMark` found them (after a 412, or a fresh read): others
   * may have added or removed some. Items this page added or removed after the read started stay so.
   */
  replaceGroupItems(blockKey: string, views: readonly RepeatableItemView[], readMark = 0) {
    this.itemsAndFiles.applyGroupItems(blockKey, views, this.itemsAndFiles.since(readMark));
  }

  fileAdded(name: string, file: FileView) {
    this.itemsAndFiles.fileAdded(name, file);
  }

  fileRemoved(name: string, fileId: string) {
    this.itemsAndFiles.fileRemoved(name, fileId);
  }

  // ---- the device copy ---------------------------------------------------------------------------

  private persist() {
    this.device.persist();
  }

  private persistNow() {
    this.device.persistNow();
  }

  /** After submit nothing is left to keep on this device. */
  clearStorage() {
    this.device.clear();
  }
}
