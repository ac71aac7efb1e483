import type { FileView } from '@/lib/bff/files';
import type { RepeatableItemView } from '@/lib/bff/items';
import { formStateFrom, itemIdOfName, type AutosaveState, type ConflictChoice, type FormValue, type FormValues } from '@/lib/forms';
import { groupFiles } from '@/lib/forms/file-values';
import type { AnswerItem } from '@/lib/portal';
import type { SendOutcome } from './autosave-loop';
import type { ItemsAndFiles } from './items-and-files';
import type { RuntimeState } from './runtime-state';

/** A read of the whole application: its answers, items and files. */
export interface FreshRead {
  answers: { items: readonly AnswerItem[]; answers_revision: number; etag: string };
  items: readonly RepeatableItemView[];
  files: readonly FileView[];
}

interface MergeHost {
  readonly state: RuntimeState;
  readonly itemsAndFiles: ItemsAndFiles;
  /** Puts values into the inputs (the page's, while one is attached). */
  show(values: FormValues): void;
  setAutosave(next: AutosaveState, kick?: boolean): void;
}

/**
 * What others wrote, merged in (DESIGN.md §4's three-way merge, run by lib/forms' autosave machine): a 412's
 * current answers, a fresh read of the whole application, and the conflicts the person settles. Theirs are
 * shown, mine kept as typed, a field both changed waits for the person.
 */
export class Merges {
  constructor(private readonly host: MergeHost) {}

  /** Values the merge took from the upstream go into the inputs; mine stay as typed. */
  applyMerge(next: AutosaveState) {
    const { state } = this.host;
    const shown: Record<string, FormValue> = {};
    for (const t of next.theirsApplied) {
      if (state.values[t.name] !== t.theirs) shown[t.name] = t.theirs;
    }
    if (Object.keys(shown).length === 0) return;
    state.setValues(shown);
    this.host.show(shown);
  }

  /** A write met a 412: the items it names as they are now, then its answers merged. */
  conflict(batchId: number, outcome: Extract<SendOutcome, { type: 'conflict' }>, readMark: number) {
    const { state, itemsAndFiles } = this.host;
    if (outcome.items) itemsAndFiles.applyGroupItems(outcome.items.blockKey, outcome.items.items, itemsAndFiles.since(readMark));
    const next = state.machine.onConflict(state.autosave, batchId, outcome.current);
    this.applyMerge(next);
    this.host.setAutosave(next, false);
  }

  /**
   * A fresh read of the whole application (someone else saved: a live update, an accepted Autofill
   * suggestion): items others added or removed appear or go, files follow the upstream, and answers are
   * merged exactly like after a 412. What this page wrote after the read started (`readMark`) stays as
   * this page knows it (items, files, their answers).
   */
  refreshFrom(read: FreshRead, readMark: number) {
    const { state, itemsAndFiles } = this.host;
    const since = itemsAndFiles.since(readMark);
    const byGroup = new Map<string, RepeatableItemView[]>();
    for (const g of state.model.groups) byGroup.set(g.blockKey, []);
    for (const item of read.items) byGroup.get(item.block_key)?.push(item);
    for (const [blockKey, views] of byGroup) itemsAndFiles.applyGroupItems(blockKey, views, since);
    const files = since.filesOver(groupFiles(read.files));
    for (const name of new Set([...state.files.keys(), ...files.keys()])) state.values[name] = (files.get(name) ?? []).map((f) => f.id);
    state.files = files;
    const answers = formStateFrom(state.model, read.answers.items, read.items);
    const fileNames = new Set(files.keys());
    const values: Record<string, FormValue> = {};
    for (const [name, value] of Object.entries(answers.values)) {
      if (!fileNames.has(name) && !since.itemsRemoved.has(itemIdOfName(name) ?? '')) values[name] = value;
    }
    // An item the read predates holds, upstream, what this page last knew of it: not "cleared by someone".
    for (const [name, value] of Object.entries(state.autosave.server)) {
      if (since.itemsAdded.has(itemIdOfName(name) ?? '') && !Object.hasOwn(values, name)) values[name] = value;
    }
    const next = state.machine.refresh(state.autosave, { values, answersRevision: read.answers.answers_revision, etag: read.answers.etag });
    this.applyMerge(next);
    this.host.setAutosave(next);
    itemsAndFiles.forgetUpTo(readMark);
    state.recomputeVisibility();
    state.changed();
  }

  /** The person settles a conflict: mine, theirs, or a value of their own. */
  resolve(name: string, choice: ConflictChoice) {
    const { state } = this.host;
    const conflict = state.autosave.conflicts.find((c) => c.name === name);
    if (!conflict) return;
    const value = choice === 'mine' ? conflict.mine : choice === 'theirs' ? conflict.theirs : choice.value;
    state.setValues({ [name]: value });
    this.host.show({ [name]: value });
    this.host.setAutosave(state.machine.resolve(state.autosave, name, choice));
  }
}
