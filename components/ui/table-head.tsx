/**
 * A table's caption (for screen readers) and its column headings; `actions` adds a last column for the
 * row's buttons, named only for screen readers.
 */
export function TableHead({ caption, columns, actions = false }: { caption: string; columns: ReadonlyArray<string | false>; actions?: boolean }) {
  return (
    <>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => c !== false && <th key={c} scope="col">{c}</th>)}
          {actions && (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          )}
        </tr>
      </thead>
    </>
  );
}
