'use client';

import { useState } from 'react';
import { ApiError } from '@/lib/api/api-error';
import { apiFetch } from '@/lib/api/api-fetch';
import { ItemDeleteResult, ItemWriteResult, type CurrentItems } from '@/lib/bff/items';
import { checkGroupCount, groupName, indexItems, type FormItem, type GroupModel } from '@/lib/forms';
import { inputIdOf } from './dom-values';
import { QuestionView } from './question-view';
import { useFormEnv, useRuntime } from './runtime-context';

/**
 * A repeatable group under one parent (the top level, or one item of the parent group): its items, each
 * with its questions and nested groups, and add / remove within min_items, max_items and the group's
 * item_operations.
 */
export function GroupView({ group, parentItemId }: { group: GroupModel; parentItemId: string | null }) {
  const { runtime, apiBase, editable } = useFormEnv();
  const items = useRuntime((r) => r.childrenOf(group.blockKey, parentItemId));
  const submitTried = useRuntime((r) => r.submitAttempted);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const gName = groupName(group.blockKey, parentItemId);
  const countError = submitTried ? checkGroupCount(group, indexItems(runtime.items), parentItemId) : null;
  const atMax = group.maxItems !== null && items.length >= group.maxItems;
  const headingId = `${inputIdOf(gName)}-title`;

  const add = async () => {
    setBusy(true);
    setProblem(null);
    const basedOn = runtime.autosave.answersRevision;
    try {
      const res = await apiFetch(`${apiBase}/items/${encodeURIComponent(group.blockKey)}`, {
        method: 'POST',
        body: parentItemId === null ? {} : { parent_item_id: parentItemId },
        // One key per click: a retry of this request after a lost reply cannot add a second item.
        headers: { 'Idempotency-Key': crypto.randomUUID() },
        schema: ItemWriteResult,
      });
      runtime.addItem(res.item, { answersRevision: res.answers_revision, etag: res.etag, basedOn });
      const first = group.questions[0]?.fields[0];
      if (first) requestAnimationFrame(() => document.getElementById(inputIdOf(`i.${res.item.item_id}.${first.schemaKey}.${first.fieldKey}`))?.focus());
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : 'The item could not be added. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={`group depth-${group.depth}`} aria-labelledby={headingId} data-group={group.blockKey}>
      <h3 id={headingId} className="group-title" tabIndex={-1}>
        {group.label}
        <span className="muted group-count">
          {' '}
          ({items.length}
          {group.maxItems !== null ? ` of at most ${group.maxItems}` : ''})
        </span>
      </h3>
      {group.minItems !== null && group.minItems > 0 && <p className="field-help">Add at least {group.minItems}.</p>}
      {items.length === 0 && <p className="muted">None added yet.</p>}
      <ol className="items">
        {items.map((item, i) => (
          <ItemView key={item.itemId} group={group} item={item} number={i + 1} canRemove={editable && group.canDelete} />
        ))}
      </ol>
      <p id={`${inputIdOf(gName)}-error`} className="field-error" aria-live="polite">
        {countError}
      </p>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      {editable && group.canCreate && (
        <button type="button" className="secondary" onClick={add} disabled={busy || atMax} id={inputIdOf(gName)}>
          {busy ? 'Adding…' : `Add ${singular(group.label).toLowerCase()}`}
        </button>
      )}
      {atMax && editable && <p className="muted">The most this group takes has been added.</p>}
    </section>
  );
}

function ItemView({ group, item, number, canRemove }: { group: GroupModel; item: FormItem; number: number; canRemove: boolean }) {
  const { runtime, apiBase } = useFormEnv();
  const count = useRuntime((r) => r.childrenOf(group.blockKey, item.parentItemId).length);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const title = `${singular(group.label)} ${number}`;
  const titleId = `${inputIdOf(item.itemId)}-title`;
  const belowMin = group.minItems !== null && count <= group.minItems;

  const remove = async () => {
    setBusy(true);
    setProblem(null);
    // Pending answers are sent first, so the ETag below is the newest this page knows.
    await runtime.whenSettled();
    const url = `${apiBase}/items/${encodeURIComponent(group.blockKey)}/${encodeURIComponent(item.itemId)}`;
    const basedOn = runtime.autosave.answersRevision;
    const attempt = (etag: string) => apiFetch(url, { method: 'DELETE', headers: { 'If-Match': etag }, schema: ItemDeleteResult });
    try {
      let res;
      try {
        res = await attempt(runtime.autosave.etag);
      } catch (e) {
        // Someone else wrote in between: the person asked for this item to go, so go on with the new ETag.
        const current = e instanceof ApiError && e.status === 412 ? (e.body as { current?: CurrentItems } | null)?.current : undefined;
        if (!current) throw e;
        runtime.replaceGroupItems(current.block_key, current.items);
        if (!current.items.some((i) => i.item_id === item.itemId)) return;
        res = await attempt(current.etag);
      }
      runtime.removeItems(res.deleted_item_ids, { answersRevision: res.answers_revision, etag: res.etag, basedOn });
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : 'The item could not be removed. Try again.');
      setBusy(false);
    }
  };

  return (
    <li className="item">
      <fieldset aria-labelledby={titleId}>
        <div className="item-head">
          <h4 id={titleId}>{title}</h4>
          {canRemove && !confirming && (
            <button
              type="button"
              className="link-button"
              onClick={() => setConfirming(true)}
              disabled={belowMin}
              aria-label={`Remove ${title}`}
              title={belowMin ? `At least ${group.minItems} needed` : undefined}
            >
              Remove
            </button>
          )}
        </div>
        {confirming && (
          <div className="confirm" role="group" aria-label={`Remove ${title}?`}>
            <p>Remove {title} and all its answers?</p>
            <button type="button" className="danger" onClick={remove} disabled={busy} autoFocus>
              {busy ? 'Removing…' : `Yes, remove ${title}`}
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)} disabled={busy}>
              Keep it
            </button>
          </div>
        )}
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
        {group.questions.map((q) => (
          <QuestionView key={q.schemaKey} question={q} itemId={item.itemId} />
        ))}
        {group.children.map((child) => (
          <GroupView key={child.blockKey} group={child} parentItemId={item.itemId} />
        ))}
      </fieldset>
    </li>
  );
}

/** "Owners" → "Owner", "Addresses" → "Address", for buttons and item titles. */
export function singular(label: string): string {
  if (/sses$/i.test(label) || /xes$/i.test(label)) return label.slice(0, -2);
  if (/ies$/i.test(label)) return `${label.slice(0, -3)}y`;
  if (/s$/i.test(label) && !/ss$/i.test(label)) return label.slice(0, -1);
  return label;
}
