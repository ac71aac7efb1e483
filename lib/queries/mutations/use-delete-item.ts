import { useMutation } from '@tanstack/react-query';
import { conflictCurrent } from '@/lib/api/api-error';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths, type FormApiBase } from '@/lib/api/paths';
import type { CurrentItems, ItemDeleteResult } from '@/lib/bff/items';
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
export function useDeleteItem(apiBase: FormApiBase, runtime: ItemWritesTarget) {
  return useMutation({
    mutationFn: async ({ blockKey, itemId }: DeleteItem): Promise<void> => {
      await runtime.whenSettled();
      const path = apiPaths.form(apiBase).item(blockKey, itemId);
      const basedOn = runtime.autosave.answersRevision;
      const attempt = (etag: string) => apiFetch<ItemDeleteResult>(path, { method: 'DELETE', headers: { 'If-Match': etag } });
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
