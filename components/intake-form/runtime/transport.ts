import { ApiError, referencedMessage } from '@/lib/api/api-error';
import { callApi } from '@/lib/api/client';
import { formApi } from '@/lib/api/endpoints';
import type { FormBase } from '@/lib/api/form-base';
import type { CurrentAnswers } from '@/lib/bff/applications';
import type { CurrentItems } from '@/lib/bff/items';
import {
  answerName,
  indexItems,
  itemName,
  valuesFromAnswers,
  valuesFromItems,
  writesFor,
  type FormItem,
  type FormModel,
  type WriteBatch,
} from '@/lib/forms';
import type { SendOutcome } from './autosave-loop';

/**
 * The form runtime's network calls, all of them: autosave's writes through the BFF (DESIGN.md §5). PATCH
 * answers/ for top-level answers, PATCH one repeatable item for an item's, both with If-Match and the
 * answers_revision the batch was made against; the reply becomes an outcome the autosave machine understands.
 */

/**
 * How the page's runtime sends: the model and items are the form's at send time, never those of when the page
 * attached (the model grows at the upgrade, which may send edits kept on the device at once).
 */
export function autosaveSender(apiBase: FormBase, form: { readonly model: FormModel; readonly items: readonly FormItem[] }) {
  return (batch: WriteBatch): Promise<SendOutcome> => sendBatch(apiBase, form.model, () => form.items, batch);
}

/** One autosave write. */
export async function sendBatch(
  apiBase: FormBase,
  model: FormModel,
  items: () => readonly FormItem[],
  batch: WriteBatch,
): Promise<SendOutcome> {
  const writes = writesFor(model, batch.edits);
  // An edit left out of the request would be marked saved with the rest: it is not, so nothing of the batch is.
  if (writes.skipped.length > 0) return { type: 'error', message: 'Some answers could not be sent from this page.' };
  const headers = { 'If-Match': batch.etag };
  try {
    if (batch.target.kind === 'answers') {
      if (writes.answers.length === 0) return { type: 'success', answersRevision: batch.answersRevision, etag: batch.etag };
      const res = await callApi(formApi.answers.PATCH, {
        params: { form: apiBase },
        headers,
        body: { answers_revision: batch.answersRevision, answers: writes.answers },
      });
      return { type: 'success', answersRevision: res.answers_revision, etag: res.etag };
    }
    const { itemId } = batch.target;
    const item = indexItems(items()).byId.get(itemId);
    if (!item) return { type: 'gone', itemId };
    const answers = writes.items.get(itemId) ?? [];
    if (answers.length === 0) return { type: 'success', answersRevision: batch.answersRevision, etag: batch.etag };
    const res = await callApi(formApi.item.PATCH, {
      params: { form: apiBase, blockKey: item.blockKey, itemId },
      headers,
      body: { answers_revision: batch.answersRevision, answers },
    });
    return { type: 'success', answersRevision: res.answers_revision, etag: res.etag };
  } catch (e) {
    if (!(e instanceof ApiError)) return { type: 'error', message: e instanceof Error ? e.message : 'Saving failed.' };
    return outcomeOfError(model, batch, e);
  }
}

function outcomeOfError(model: FormModel, batch: WriteBatch, e: ApiError): SendOutcome {
  if (e.code === 'network_error' || e.status === 0) return { type: 'offline' };
  if (e.status === 412) {
    const current = (e.body as { current?: CurrentAnswers | CurrentItems } | null)?.current;
    if (current && 'block_key' in current) {
      return {
        type: 'conflict',
        current: { values: valuesFromItems(model, current.items), answersRevision: current.answers_revision, etag: current.etag },
        items: { blockKey: current.block_key, items: current.items },
      };
    }
    if (current) {
      return {
        type: 'conflict',
        current: { values: valuesFromAnswers(model, current.items), answersRevision: current.answers_revision, etag: current.etag },
      };
    }
    return { type: 'error', message: 'Someone else saved first; reload to see their answers.' };
  }
  if (e.status === 404 && batch.target.kind === 'item') return { type: 'gone', itemId: batch.target.itemId };
  if (e.status === 422 || e.status === 400) {
    const fieldErrors: Record<string, string> = {};
    for (const d of e.details) {
      if (!d.schema_key || !d.field_key) continue;
      const name =
        batch.target.kind === 'item'
          ? itemName(d.item_id ?? batch.target.itemId, d.schema_key, d.field_key)
          : answerName(d.block_key ?? d.schema_key, d.schema_key, d.field_key);
      fieldErrors[name] = d.message;
    }
    return { type: 'rejected', fieldErrors };
  }
  if (e.status === 401) return { type: 'error', message: 'Your session has ended. Sign in again in another tab; your changes are kept here.' };
  if (e.status === 409) return { type: 'rejected', fieldErrors: {} };
  return { type: 'error', message: referencedMessage(e) };
}
