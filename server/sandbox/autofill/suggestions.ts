import type { AnswerValue, AutofillSuggestion } from '@/lib/portal';
import { applyTopWrites, checkWrites, fileValues, topWriteResolver } from '../domain/answers';
import { answerKey, itemAnswerKey } from '../domain/contract-index';
import { SandboxError } from '../http/errors';
import type { Sandbox } from '../sandbox';
import type { ApplicationRec } from '../store/types';
import { currentValueOf, type TargetRef } from './targets';
import type { SuggestionRec } from './types';

/**
 * Suggestions: pending until accepted (the value is written as an answer, through the same validation as
 * answer writes) or dismissed. A pending suggestion whose target answer no longer holds the value it was
 * made against is shown as stale, and can then be neither accepted nor dismissed. Stale is worked out on
 * every read, so a suggestion whose answer is put back to that value is pending again.
 */

export type SuggestionStatus = AutofillSuggestion['status'];

const sameAnswer = (a: AnswerValue | undefined, b: AnswerValue | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The target of a suggestion, or undefined when the contract no longer has its field. */
function refOf(sb: Sandbox, app: ApplicationRec, s: SuggestionRec): TargetRef | undefined {
  const info = sb.index(app).byKey.get(answerKey(s.block_key, s.schema_key, s.field_key));
  if (!info || Boolean(info.group) !== (s.item_id !== null)) return undefined;
  return { info, itemId: s.item_id };
}

export function effectiveStatus(sb: Sandbox, app: ApplicationRec, s: SuggestionRec, files = fileValues(app)): SuggestionStatus {
  if (s.status !== 'pending') return s.status;
  const ref = refOf(sb, app, s);
  const now = ref ? currentValueOf(app, ref, files) : undefined;
  return now !== undefined && sameAnswer(now, s.current_value) ? 'pending' : 'stale';
}

export function suggestionView(sb: Sandbox, app: ApplicationRec, s: SuggestionRec, files = fileValues(app)): AutofillSuggestion {
  return {
    id: s.id,
    object: 'client_intake_application_autofill_suggestion',
    run: { id: s.run_id, object: 'client_intake_application_autofill_run', url: sb.urls.autofillRun(app.id, s.run_id) },
    status: effectiveStatus(sb, app, s, files),
    section_label: s.section_label,
    question_label: s.question_label,
    field_label: s.field_label,
    display_order: s.display_order,
    suggestion_kind: 'answer',
    target_attribute: `${s.block_key}/${s.schema_key}/${s.field_key}`,
    target_scope: s.item_id,
    current_value: s.current_value,
    proposed_value: s.proposed_value,
    source: { ...s.source },
    concerns: s.concerns.map((c) => ({ ...c })),
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

/** 409 unless the suggestion is pending (stale ones say so with the stale_suggestion code). */
export function assertPending(sb: Sandbox, app: ApplicationRec, s: SuggestionRec, action: 'accept' | 'dismiss') {
  const status = effectiveStatus(sb, app, s);
  if (status === 'pending') return;
  if (status === 'stale') {
    throw new SandboxError('conflict', `The answer this suggestion targets changed after the run; it can no longer be ${action === 'accept' ? 'accepted' : 'dismissed'}.`, [
      { code: 'stale_suggestion', message: 'Re-read the answer and start a new run if you want fresh suggestions.', block_key: s.block_key, schema_key: s.schema_key, field_key: s.field_key, ...(s.item_id ? { item_id: s.item_id } : {}) },
    ]);
  }
  throw new SandboxError('conflict', `The suggestion was already ${status}.`, [
    { code: 'suggestion_not_pending', message: `Only pending suggestions can be ${action === 'accept' ? 'accepted' : 'dismissed'}.` },
  ]);
}

/**
 * Writes the proposed value as an answer, validated exactly like an answer write. Refused with 422 when the
 * value is outside the field's value_schema. Returns whether the answer set changed.
 */
export function writeSuggestion(sb: Sandbox, app: ApplicationRec, s: SuggestionRec): boolean {
  const ref = refOf(sb, app, s);
  if (!ref) throw new SandboxError('conflict', 'The contract no longer has this field.', [{ code: 'stale_suggestion', message: 'Start a new run.' }]);
  const index = sb.index(app);
  const write = { block_key: s.block_key, schema_key: s.schema_key, field_key: s.field_key, value: s.proposed_value };
  const refuse = (e: unknown): never => {
    if (e instanceof SandboxError && e.code === 'validation_failed') {
      throw new SandboxError('validation_failed', 'The proposed value does not fit the field’s value_schema, so it cannot be accepted as it is; write a corrected answer instead.', [
        { code: 'outside_schema', message: s.concerns.find((c) => c.code === 'outside_schema')?.message ?? 'The proposed value is not valid for this field.', block_key: s.block_key, schema_key: s.schema_key, field_key: s.field_key, ...(s.item_id ? { item_id: s.item_id } : {}) },
        ...e.details,
      ]);
    }
    throw e;
  };
  if (ref.itemId === null) {
    let infos;
    try {
      infos = checkWrites(index, [write], topWriteResolver(index));
    } catch (e) {
      refuse(e);
    }
    const before = JSON.stringify(app.answers[ref.info.key] ?? null);
    applyTopWrites(app, infos!, [s.proposed_value]);
    return JSON.stringify(app.answers[ref.info.key] ?? null) !== before;
  }
  const item = app.items[ref.itemId]!;
  const group = index.groups.get(item.block_key)!;
  try {
    checkWrites(index, [write], (w) => group.byItemKey.get(itemAnswerKey(w.schema_key, w.field_key)), item.item_id);
  } catch (e) {
    refuse(e);
  }
  const before = JSON.stringify(item.answers[ref.info.itemKey] ?? null);
  if (s.proposed_value === null) delete item.answers[ref.info.itemKey];
  else item.answers[ref.info.itemKey] = s.proposed_value;
  return JSON.stringify(item.answers[ref.info.itemKey] ?? null) !== before;
}
