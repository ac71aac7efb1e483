'use client';

import { useState } from 'react';
import { ApiError } from '@/lib/api/api-error';
import { checkGroupCount, groupName, indexItems, type FormItem, type GroupModel } from '@/lib/forms';
import { useAddItem } from '@/lib/queries/mutations/use-add-item';
import { useDeleteItem } from '@/lib/queries/mutations/use-delete-item';
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
  const adder = useAddItem(apiBase, runtime);
  const busy = adder.isPending;
  const problem = adder.error ? problemOf(adder.error, 'The item could not be added. Try again.') : null;
  const gName = groupName(group.blockKey, parentItemId);
  const countError = submitTried ? checkGroupCount(group, indexItems(runtime.items), parentItemId) : null;
  const atMax = group.maxItems !== null && items.length >= group.maxItems;
  const headingId = `${inputIdOf(gName)}-title`;

  const add = () =>
    adder.mutate(
      { blockKey: group.blockKey, parentItemId },
      {
        onSuccess: (item) => {
          const first = group.questions[0]?.fields[0];
          if (first) requestAnimationFrame(() => document.getElementById(inputIdOf(`i.${item.item_id}.${first.schemaKey}.${first.fieldKey}`))?.focus());
        },
      },
    );

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
  const remover = useDeleteItem(apiBase, runtime);
  const busy = remover.isPending;
  const problem = remover.error ? problemOf(remover.error, 'The item could not be removed. Try again.') : null;
  const title = `${singular(group.label)} ${number}`;
  const titleId = `${inputIdOf(item.itemId)}-title`;
  const belowMin = group.minItems !== null && count <= group.minItems;

  const remove = () => remover.mutate({ blockKey: group.blockKey, itemId: item.itemId });

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

const problemOf = (e: Error, otherwise: string) => (e instanceof ApiError ? e.message : otherwise);

/** "Owners" → "Owner", "Addresses" → "Address", for buttons and item titles. */
export function singular(label: string): string {
  if (/sses$/i.test(label) || /xes$/i.test(label)) return label.slice(0, -2);
  if (/ies$/i.test(label)) return `${label.slice(0, -3)}y`;
  if (/s$/i.test(label) && !/ss$/i.test(label)) return label.slice(0, -1);
  return label;
}
