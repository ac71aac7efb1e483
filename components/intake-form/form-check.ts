'use client';

import type { ErrorDetail } from '@/lib/portal';
import { answerName, itemName, type MissingEntry } from '@/lib/forms';
import type { FormRuntime } from './runtime/form-runtime';
import { labelOfName } from './field-link';

/** An answer that stands in the way of sending the form (submit, find funders), linked to its field. */
export interface Problem {
  /** The field's form name; empty when the Portal named no field. */
  readonly name: string;
  readonly label: string;
  readonly message: string;
}

const describe = (m: MissingEntry): string => {
  const where = m.groupLabel && m.itemNumber ? `${m.groupLabel} ${m.itemNumber} – ` : '';
  return m.kind === 'group' ? `${m.groupLabel ?? m.label}` : `${where}${m.label}`;
};

export type FormCheck = { kind: 'ready' } | { kind: 'problems'; problems: Problem[] } | { kind: 'unsaved' };

/**
 * What the form itself says before the Portal is asked to take it: everything typed is saved first, then
 * conflicts to decide, answers held back (not valid, or refused), and required answers still missing.
 */
export async function checkForm(runtime: FormRuntime): Promise<FormCheck> {
  // The check needs the whole contract: the page may still be reading it (opened on one section).
  await runtime.whenComplete();
  await runtime.whenSettled();
  const s = runtime.autosave;
  if (s.conflicts.length > 0) {
    return { kind: 'problems', problems: s.conflicts.map((c) => ({ name: c.name, label: labelOfName(runtime.model, c.name), message: 'Choose which answer to keep' })) };
  }
  // Answers held back (not valid, or refused by the Portal) will not be sent as they are: say which and why.
  const held = runtime.heldAnswers();
  if (held.length > 0) return { kind: 'problems', problems: held.map((h) => ({ name: h.name, label: labelOfName(runtime.model, h.name), message: h.reason })) };
  if (!s.online || Object.keys(s.pending).length > 0 || s.inFlight) return { kind: 'unsaved' };
  const errors = runtime.validator.validateAll(runtime.values, runtime.visibility);
  const missing = runtime.progress().missing;
  const listed = new Set(missing.map((m) => m.name));
  const problems: Problem[] = [
    ...missing.map((m) => ({ name: m.name, label: describe(m), message: errors[m.name] ?? 'Missing' })),
    ...Object.entries(errors)
      .filter(([n]) => !listed.has(n))
      .map(([name, message]) => ({ name, label: labelOfName(runtime.model, name), message })),
  ];
  return problems.length > 0 ? { kind: 'problems', problems } : { kind: 'ready' };
}

/** The Portal's own list (a 422's details) as problems, each linked to the field it names. */
export function problemsFromDetails(runtime: FormRuntime, details: readonly ErrorDetail[]): Problem[] {
  return details.map((d) => {
    const name =
      d.schema_key && d.field_key
        ? d.item_id
          ? itemName(d.item_id, d.schema_key, d.field_key)
          : answerName(d.block_key ?? d.schema_key, d.schema_key, d.field_key)
        : '';
    return { name, label: name ? labelOfName(runtime.model, name) : d.message, message: d.message };
  });
}
