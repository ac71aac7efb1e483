import type { UseFormRegisterReturn } from 'react-hook-form';

interface Props {
  id: string;
  label: string;
  /** What the list holds, e.g. "businesses": "Loading businesses…", "Load more businesses". */
  plural: string;
  placeholder: string;
  options: ReadonlyArray<{ id: string; label: string }>;
  /** The list's paged read. */
  list: { isPending: boolean; hasNextPage: boolean; isFetchingNextPage: boolean; error: Error | null };
  onLoadMore(): void;
  registration: UseFormRegisterReturn;
  error: string | undefined;
}

/** A choice from a list read a page at a time: the select, "load more", and the list's or the field's error. */
export function ChoiceField({ id, label, plural, placeholder, options, list, onLoadMore, registration, error }: Props) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="deals-choices">
        <select id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...registration}>
          <option value="">{list.isPending ? `Loading ${plural}…` : placeholder}</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
        {list.hasNextPage && (
          <button type="button" className="secondary" onClick={onLoadMore} disabled={list.isFetchingNextPage}>
            Load more {plural}
          </button>
        )}
      </div>
      {list.error && (
        <p className="field-error" role="alert">
          The {plural} could not be loaded: {list.error.message}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
