import type { SelectHTMLAttributes } from 'react';

export interface SelectOption {
  readonly value: string;
  readonly label: string;
}

/** The options of a fixed list of keys, labelled from a map (filters, sorts). */
export const labelledOptions = <K extends string>(keys: readonly K[], labels: Readonly<Record<K, string>>): SelectOption[] =>
  keys.map((value) => ({ value, label: labels[value] }));

type Props = { id: string; label: string; options: readonly SelectOption[]; any?: string } & Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  'id' | 'children'
>;

/** One labelled select in the field layout; `any` puts a first, empty choice ("Any stage") before the options. */
export function SelectField({ id, label, options, any, ...select }: Props) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select}>
        {any !== undefined && <option value="">{any}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
