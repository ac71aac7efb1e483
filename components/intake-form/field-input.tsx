'use client';

import { memo, useRef, useState, type ClipboardEvent } from 'react';
import { get, useFormContext, useFormState, useWatch } from 'react-hook-form';
import { textLength, type FieldModel } from '@/lib/forms';
import { ConflictPanel } from './conflict-panel';
import { DateExample } from './date-example';
import { fromDomInput, inputIdOf } from './dom-values';
import { FileField } from './file-field';
import { useFormEnv, useRuntime } from './runtime-context';
import { TextCounter } from './text-counter';

interface Props {
  field: FieldModel;
  /** The form name of this field instance (top level or in one item). */
  name: string;
  itemId: string | null;
  /** The field's own label, or the question's when the question has one field. */
  label: string;
  /** Help text to show with the field (the question's for a one-field question). */
  helpText: string | null;
}

const CHOICE_SET = new Set(['radio', 'checkbox-group', 'yes-no']);

/**
 * One field of the contract, with the widget its kind and value_schema chose. Inputs are uncontrolled
 * (react-hook-form's register); this component re-renders only when its own error, conflict or notice
 * changes.
 */
export const FieldInput = memo(function FieldInput({ field, name, itemId, label, helpText }: Props) {
  const { runtime, apiBase, editable, prefilled, changeRequests } = useFormEnv();
  const { register, control, getValues } = useFormContext();
  const { errors } = useFormState({ control, name, exact: true });
  const rejected = useRuntime((r) => r.autosave.rejected[name] ?? null);
  const conflict = useRuntime((r) => r.conflictOf(name) ?? null);
  const changedByOthers = useRuntime((r) => r.autosave.theirsApplied.some((t) => t.name === name));
  const files = useRuntime((r) => (field.widget === 'file' ? r.filesOf(name) : null));
  // A value that came back from this device's storage and cannot be sent says why, before anyone touches it.
  const restored = useRuntime((r) => r.restoredReason(name));
  // Whether the latest change was a paste that went over the limit: set by the paste, read by the change after it.
  const [pasted, setPasted] = useState(false);
  const pasteOver = useRef(false);
  const inputRef = useRef<Element | null>(null);

  const id = inputIdOf(name);
  const ownError = get(errors, name) as { message?: string } | undefined;
  const error: string | null = ownError?.message ?? rejected ?? restored;
  const limit = field.textLimit;
  const countId = limit ? `${id}-count` : undefined;
  // Whether a paste takes the text over its limit; nothing is cut, the counter says so instead.
  const onPaste = limit
    ? (e: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
        const el = e.currentTarget;
        const kept = el.value.slice(0, el.selectionStart ?? el.value.length) + el.value.slice(el.selectionEnd ?? el.value.length);
        pasteOver.current = textLength(kept + e.clipboardData.getData('text'), limit.units) > limit.max;
      }
    : undefined;
  const readOnly = !editable || field.readOnly;

  if (field.widget === 'file') {
    return (
      <FileField
        apiBase={apiBase}
        inputId={id}
        label={label}
        helpText={helpText}
        hint={field.hint}
        required={field.required}
        target={{ blockKey: field.blockKey, schemaKey: field.schemaKey, fieldKey: field.fieldKey, itemId }}
        maxFiles={field.maxFiles}
        readOnly={readOnly}
        files={files ?? []}
        error={error}
        changeComment={changeRequests?.get(name)}
        onUploaded={(file) => runtime.fileAdded(name, file)}
        onRemoved={(fileId) => runtime.fileRemoved(name, fileId)}
      />
    );
  }

  const helpId = helpText ? `${id}-help` : undefined;
  const hintId = field.hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  const prefillId = prefilled.has(name) ? `${id}-prefilled` : undefined;
  const changeComment = changeRequests?.get(name);
  const changeId = changeComment !== undefined ? `${id}-change` : undefined;
  const describedBy = [changeId, helpId, hintId, prefillId, countId, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  const { ref: registerRef, ...registeredRest } = register(name, {
    validate: (raw: unknown) =>
      runtime.validator.validateField(name, fromDomInput(field, raw, inputRef.current), runtime.nameVisible(name)) ?? true,
    // Typing reaches the runtime (visibility, autosave) from here rather than from a form-wide values
    // subscription, which would make react-hook-form copy every value of the form on each keystroke.
    onChange: (e: { target: EventTarget | null }) => {
      if (limit) {
        setPasted(pasteOver.current);
        pasteOver.current = false;
      }
      runtime.typed(name, fromDomInput(field, getValues(name), e.target as Element | null));
    },
  });
  // The input itself, for what react-hook-form does not read: whether the browser could read what was typed.
  const registered = {
    ...registeredRest,
    ref: (el: Element | null) => {
      inputRef.current = el;
      registerRef(el);
    },
  };
  const common = {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
    disabled: readOnly,
  } as const;
  const requiredMark = field.required ? <RequiredMark /> : null;
  const notes = (
    <>
      {changeId && (
        <p id={changeId} className="field-change-request">
          <strong>Change requested:</strong> {changeComment}
        </p>
      )}
      {helpText && (
        <p id={helpId} className="field-help">
          {helpText}
        </p>
      )}
      {field.hint && (
        <p id={hintId} className="field-hint">
          For example: {field.widget === 'date' ? <DateExample date={field.hint} /> : field.hint}
        </p>
      )}
      {prefillId && (
        <p id={prefillId} className="field-prefilled">
          <span className="field-prefilled-mark" aria-hidden="true">
            Prefilled
          </span>
          From the intake application
        </p>
      )}
    </>
  );
  const after = (
    <>
      {limit && countId && <TextCounter field={field} name={name} id={countId} limit={limit} pasted={pasted} />}
      <p id={errorId} className="field-error" aria-live="polite">
        {error}
      </p>
      {changedByOthers && !conflict && <p className="field-notice">Updated by someone else just now.</p>}
      {conflict && <ConflictPanel field={field} name={name} conflict={conflict} label={label} />}
    </>
  );

  if (CHOICE_SET.has(field.widget)) {
    const options =
      field.widget === 'yes-no'
        ? [
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]
        : (field.options ?? []);
    const type = field.widget === 'checkbox-group' ? 'checkbox' : 'radio';
    return (
      <fieldset
        className={`field choice${error ? ' has-error' : ''}`}
        // A set of radios is a radiogroup, which (unlike a plain group) may say it is required or invalid.
        role={type === 'radio' ? 'radiogroup' : undefined}
        aria-describedby={describedBy}
        aria-invalid={type === 'radio' && error ? true : undefined}
        aria-required={type === 'radio' && field.required ? true : undefined}
        data-field={name}
      >
        <legend>
          {label}
          {requiredMark}
        </legend>
        {notes}
        <div className={field.widget === 'yes-no' ? 'options inline' : 'options'}>
          {options.map((o, i) => (
            <label key={o.value} className="option">
              <input
                type={type}
                value={o.value}
                id={i === 0 ? id : `${id}-${i}`}
                disabled={readOnly}
                {...registered}
              />
              <span>{o.label}</span>
            </label>
          ))}
        </div>
        {after}
      </fieldset>
    );
  }

  if (field.widget === 'checkbox') {
    return (
      <div className={`field checkbox${error ? ' has-error' : ''}`} data-field={name}>
        {notes}
        <label className="option">
          <input type="checkbox" id={id} {...common} {...registered} />
          <span>
            {label}
            {requiredMark}
          </span>
        </label>
        {after}
      </div>
    );
  }

  const labelEl = (
    <label htmlFor={id}>
      {label}
      {requiredMark}
    </label>
  );

  if (field.widget === 'select') {
    return (
      <div className={`field${error ? ' has-error' : ''}`} data-field={name}>
        {labelEl}
        {notes}
        <select id={id} autoComplete={field.attributes.autoComplete} {...common} {...registered}>
          <SelectOptions field={field} name={name} />
        </select>
        {after}
      </div>
    );
  }

  if (field.widget === 'textarea' || field.widget === 'list') {
    const { type: _type, inputMode: _mode, ...attrs } = field.attributes;
    return (
      <div className={`field${error ? ' has-error' : ''}`} data-field={name}>
        {labelEl}
        {notes}
        {field.widget === 'list' && <p className="field-hint">One per line.</p>}
        <textarea id={id} rows={field.widget === 'list' ? 4 : 3} {...attrs} {...common} {...registered} onPaste={onPaste} />
        {after}
      </div>
    );
  }

  // The percent sign is shown beside the box; a currency sign is not, as contracts do not say which.
  const input = <input id={id} {...field.attributes} {...common} {...registered} onPaste={onPaste} />;
  return (
    <div className={`field${error ? ' has-error' : ''}`} data-field={name}>
      {labelEl}
      {notes}
      {field.widget === 'percent' ? (
        <span className="affix">
          {input}
          <span aria-hidden="true">%</span>
        </span>
      ) : (
        input
      )}
      {after}
    </div>
  );
});

/**
 * A drop-down's options. An answer that is none of them (a code in another case, a value the contract no
 * longer offers) is shown as it is rather than as "Choose…", so nothing changes without the person seeing it.
 */
function SelectOptions({ field, name }: { field: FieldModel; name: string }) {
  const { control } = useFormContext();
  const value: unknown = useWatch({ control, name });
  const options = field.options ?? [];
  const other = typeof value === 'string' && value !== '' && !options.some((o) => o.value === value) ? value : null;
  return (
    <>
      <option value="">Choose…</option>
      {other !== null && <option value={other}>{other} (not one of the choices)</option>}
      {options.map((o) => (
        // Names come from the runtime's Intl data, which the server's and the browser's may word differently.
        <option key={o.value} value={o.value} suppressHydrationWarning>
          {o.label}
        </option>
      ))}
    </>
  );
}

function RequiredMark() {
  return (
    <>
      <span className="required-mark" aria-hidden="true">
        {' '}
        *
      </span>
      <span className="visually-hidden"> (required)</span>
    </>
  );
}
