import type { RepeatableItemView } from '../bff/items';

/** The answers revision a write outside autosave moved to, and the one it was made against. */
export interface ItemWriteRevision {
  answersRevision: number;
  etag: string;
  basedOn: number;
}

/**
 * What a write outside autosave (an item added or removed: lib/queries/mutations) needs of the form open in the
 * page: the revision autosave quotes, autosave's own writes settled first, and the items taken in with the
 * revision they moved to. The browser's form runtime (components/intake-form/runtime) is one; lib/ knows it by
 * this shape only.
 */
export interface ItemWritesTarget {
  readonly autosave: { readonly answersRevision: number; readonly etag: string };
  whenSettled(): Promise<void>;
  readMark(): number;
  addItem(view: RepeatableItemView, revision: ItemWriteRevision): void;
  removeItems(itemIds: readonly string[], revision: ItemWriteRevision | null): void;
  replaceGroupItems(blockKey: string, views: readonly RepeatableItemView[], readMark?: number): void;
}
