import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { formApi } from '@/lib/api/endpoints';
import { conflictCurrent } from '@/lib/api/api-error';
import type { FormBase } from '@/lib/api/form-base';
import type { CurrentItems } from '@/lib/bff/items';
import type { ItemWritesTarget } from '@/lib/forms/item-writes-target';

export interface DeleteItem {
  blockKey: string;
  itemId: string;
}

/**
 * Removes an item (and its nested items) from a repeatable group. Pending answers are sent first, so the
 * ETag quoted is the newest the page knows; when someone else wrote in between (412) the person still
 * asked for this item to go, so it goes with the new ETag, unless it is gone already.
 */
export function useDeleteItem(apiBase: FormBase, runtime: ItemWritesTarget) {
  return useMutation({
    mutationFn: async ({ blockKey, itemId }: DeleteItem): Promise<void> => {
      await runtime.whenSettled();
      const basedOn = runtime.autosave.answersRevision;
      const attempt = (etag: string) => callApi(formApi.item.DELETE, { params: { form: apiBase, blockKey, itemId }, headers: { 'If-Match': etag } });
      let res;
      const readMark = runtime.readMark();
      try {
        res = await attempt(runtime.autosave.etag);
      } catch (e) {
        const current = conflictCurrent<CurrentItems>(e);
        if (!current) throw e;
        runtime.replaceGroupItems(current.block_key, current.items, readMark);
        if (!current.items.some((i) => i.item_id === itemId)) return;
        res = await attempt(current.etag);
      }
      runtime.removeItems(res.deleted_item_ids, { answersRevision: res.answers_revision, etag: res.etag, basedOn });
    },
  });
}
