import { useMutation } from '@tanstack/react-query';
import { callWithNewKey } from '@/lib/api/client';
import { formApi } from '@/lib/api/endpoints';
import type { FormBase } from '@/lib/api/form-base';
import type { RepeatableItemView } from '@/lib/bff/items';
import type { ItemWritesTarget } from '@/lib/forms/item-writes-target';

export interface AddItem {
  blockKey: string;
  /** The item of the parent group the new item goes under; null at the top level. */
  parentItemId: string | null;
}

/** Adds an item to a repeatable group; the open form (its runtime) takes it with the new revision. */
export function useAddItem(apiBase: FormBase, runtime: ItemWritesTarget) {
  return useMutation({
    mutationFn: async ({ blockKey, parentItemId }: AddItem): Promise<RepeatableItemView> => {
      const basedOn = runtime.autosave.answersRevision;
      // One key per click: a retry of this request after a lost reply cannot add a second item.
      const res = await callWithNewKey(formApi.itemGroup.POST, { params: { form: apiBase, blockKey }, body: parentItemId === null ? {} : { parent_item_id: parentItemId } });
      runtime.addItem(res.item, { answersRevision: res.answers_revision, etag: res.etag, basedOn });
      return res.item;
    },
  });
}
