import type { FileView } from '@/lib/bff/files';
import type { RepeatableItemView } from '@/lib/bff/items';
import { formItemOf, indexItems, itemIdOfName, valuesFromItems, type FormItem } from '@/lib/forms';
import type { ItemWriteRevision } from '@/lib/forms/item-writes-target';
import { LocalChanges, type WrittenSince } from '@/lib/forms/local-changes';
import type { RuntimeState } from './runtime-state';

const NO_FILES: readonly FileView[] = Object.freeze([]);

/**
 * Repeatable items and attached files: written outside autosave (their own requests, lib/queries/mutations and
 * the upload code), taken into the runtime here with the revision they moved to, and remembered (LocalChanges)
 * so that a read started before one of them does not undo it.
 */
export class ItemsAndFiles {
  private readonly local = new LocalChanges();

  constructor(
    private readonly state: RuntimeState,
    /** The device copy follows the autosave state (edits of a removed item go with it). */
    private readonly persist: () => void,
  ) {}

  childrenOf(blockKey: string, parentItemId: string | null): readonly FormItem[] {
    return indexItems(this.state.items).childrenOf(blockKey, parentItemId);
  }

  filesOf(name: string): readonly FileView[] {
    return this.state.files.get(name) ?? NO_FILES;
  }

  /** Taken when a read of the form starts; what this page writes after it is laid over what the read brings. */
  readMark(): number {
    return this.local.mark();
  }

  since(mark: number): WrittenSince {
    return this.local.since(mark);
  }

  /** A read started at `mark` was taken in: what was written before it, it shows. */
  forgetUpTo(mark: number) {
    this.local.forgetUpTo(mark);
  }

  addItem(view: RepeatableItemView, revision: ItemWriteRevision) {
    const s = this.state;
    Object.assign(s.values, valuesFromItems(s.model, [view]));
    s.items = [...s.items, formItemOf(view)];
    this.local.itemAdded(view.item_id);
    s.recomputeVisibility();
    this.adoptRevision(revision);
    s.changed();
  }

  removeItems(itemIds: readonly string[], revision: ItemWriteRevision | null) {
    const s = this.state;
    const gone = new Set(itemIds);
    s.items = s.items.filter((i) => !gone.has(i.itemId));
    this.local.itemsRemoved(itemIds);
    let autosave = s.autosave;
    for (const id of itemIds) autosave = s.machine.forgetItem(autosave, id);
    for (const name of Object.keys(s.values)) {
      if (gone.has(itemIdOfName(name) ?? '')) delete s.values[name];
    }
    s.recomputeVisibility();
    s.autosave = autosave;
    if (revision !== null) this.adoptRevision(revision);
    this.persist();
    s.changed();
  }

  /** The items of a group as a read found them: others may have added or removed some, but not those written `since`. */
  applyGroupItems(blockKey: string, views: readonly RepeatableItemView[], since: WrittenSince) {
    const s = this.state;
    const known = new Set(s.items.map((i) => i.itemId));
    const now = new Set(views.map((v) => v.item_id));
    const added = views.filter((v) => !known.has(v.item_id) && !since.itemsRemoved.has(v.item_id));
    const removed = s.items.filter((i) => i.blockKey === blockKey && !now.has(i.itemId) && !since.itemsAdded.has(i.itemId)).map((i) => i.itemId);
    if (added.length === 0 && removed.length === 0) return;
    Object.assign(s.values, valuesFromItems(s.model, added));
    s.items = [...s.items.filter((i) => !removed.includes(i.itemId)), ...added.map(formItemOf)];
    let autosave = s.autosave;
    for (const id of removed) autosave = s.machine.onItemGone(autosave, id);
    s.autosave = autosave;
    s.recomputeVisibility();
    this.persist();
    s.changed();
  }

  /**
   * A write outside autosave moved the answers revision. When nobody else wrote in between (the reply is
   * exactly one revision on), autosave can go on with the new ETag; otherwise it keeps the old one and its
   * next write meets a 412 and merges, as it should.
   */
  private adoptRevision(r: ItemWriteRevision) {
    const s = this.state;
    const a = s.autosave;
    if (a.inFlight === null && a.answersRevision === r.basedOn && r.answersRevision === r.basedOn + 1) {
      s.autosave = { ...a, answersRevision: r.answersRevision, etag: r.etag };
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
    const s = this.state;
    const files = new Map(s.files);
    files.set(name, list);
    s.files = files;
    s.setValues({ [name]: list.map((f) => f.id) });
    s.changed();
  }
}
