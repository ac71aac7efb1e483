import { oncePerObject } from './once-per-object';

/**
 * The repeatable items a form shows: which group each item is of and which item it is nested in. Field
 * names carry only the item id (names.ts), so visibility, validation and progress read the rest here.
 */

export interface FormItem {
  readonly itemId: string;
  readonly blockKey: string;
  readonly parentItemId: string | null;
  readonly order: number;
}

export interface ItemIndex {
  readonly items: readonly FormItem[];
  readonly byId: ReadonlyMap<string, FormItem>;
  /** Items of a group under one parent (null: top level), in `order`. */
  childrenOf(blockKey: string, parentItemId: string | null): readonly FormItem[];
  /** The item, its parent, and so on up to the top. */
  ancestry(itemId: string): readonly FormItem[];
  /** Items nested (at any depth) in an item, not including itself. */
  descendantsOf(itemId: string): readonly FormItem[];
}

const NONE: readonly FormItem[] = Object.freeze([]);
const slot = (blockKey: string, parentItemId: string | null) => `${blockKey}\u0000${parentItemId ?? ''}`;

/** Shaped like the BFF's RepeatableItemView, whose fields are snake_case. */
export interface ItemViewLike {
  readonly item_id: string;
  readonly block_key: string;
  readonly parent_item_id: string | null;
  readonly order: number;
}

export const formItemOf = (view: ItemViewLike): FormItem => ({
  itemId: view.item_id,
  blockKey: view.block_key,
  parentItemId: view.parent_item_id,
  order: view.order,
});

/** An index over a list of items; the same array gives the same index. */
export const indexItems: (items: readonly FormItem[]) => ItemIndex = oncePerObject(buildIndex);

function buildIndex(items: readonly FormItem[]): ItemIndex {
  const byId = new Map<string, FormItem>();
  const bySlot = new Map<string, FormItem[]>();
  const byParent = new Map<string, FormItem[]>();
  for (const item of items) {
    if (byId.has(item.itemId)) continue;
    byId.set(item.itemId, item);
    const key = slot(item.blockKey, item.parentItemId);
    bySlot.set(key, [...(bySlot.get(key) ?? []), item]);
    if (item.parentItemId !== null) byParent.set(item.parentItemId, [...(byParent.get(item.parentItemId) ?? []), item]);
  }
  for (const list of bySlot.values()) list.sort((a, b) => a.order - b.order);
  return {
    items,
    byId,
    childrenOf: (blockKey, parentItemId) => bySlot.get(slot(blockKey, parentItemId)) ?? NONE,
    ancestry: (itemId) => {
      const chain: FormItem[] = [];
      const seen = new Set<string>();
      for (let at = byId.get(itemId); at !== undefined && !seen.has(at.itemId); ) {
        seen.add(at.itemId);
        chain.push(at);
        at = at.parentItemId === null ? undefined : byId.get(at.parentItemId);
      }
      return chain;
    },
    descendantsOf: (itemId) => {
      const out: FormItem[] = [];
      const seen = new Set<string>([itemId]);
      const stack = [...(byParent.get(itemId) ?? [])];
      while (stack.length > 0) {
        const item = stack.pop() as FormItem;
        if (seen.has(item.itemId)) continue;
        seen.add(item.itemId);
        out.push(item);
        stack.push(...(byParent.get(item.itemId) ?? []));
      }
      return out;
    },
  };
}
