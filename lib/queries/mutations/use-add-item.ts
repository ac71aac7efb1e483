import { useMutation } from '@tanstack/react-query';
import { postWithNewKey } from '@/lib/api/api-fetch';
import { apiPaths, type FormApiBase } from '@/lib/api/paths';
import type { ItemWriteResult, RepeatableItemView } from '@/lib/bff/items';
import type { ItemWritesTarget } from '@/lib/forms/item-writes-target';

export interface AddItem {
  blockKey: string;
  /** The item of the parent group the new item goes under; null at the top level. */
  parentItemId: string | null;
}

/** Adds an item to a repeatable group; the open form (its runtime) takes it with the new revision. */
export function useAddItem(apiBase: FormApiBase, runtime: ItemWritesTarget) {
  return useMutation({
    mutationFn: async ({ blockKey, parentItemId }: AddItem): Promise<RepeatableItemView> => {
      const basedOn = runtime.autosave.answersRevision;
      // One key per click: a retry of this request after a lost reply cannot add a second item.
      const res = await postWithNewKey<ItemWriteResult>(apiPaths.form(apiBase).items(blockKey), parentItemId === null ? {} : { parent_item_id: parentItemId });
      runtime.addItem(res.item, { answersRevision: res.answers_revision, etag: res.etag, basedOn });
      return res.item;
    },
  });
}
