/** Removes one listed file; named with the file, and saying so while the removal is under way. */
export function RemoveFileButton({ fileName, busy, onRemove }: { fileName: string; busy: boolean; onRemove(): void }) {
  return (
    <button
      type="button"
      className="link-button"
      aria-label={`${busy ? 'Removing' : 'Remove'} ${fileName}`}
      // aria-disabled rather than disabled: a disabled button drops the keyboard focus.
      aria-disabled={busy || undefined}
      onClick={onRemove}
    >
      {busy ? 'Removing…' : 'Remove'}
    </button>
  );
}
