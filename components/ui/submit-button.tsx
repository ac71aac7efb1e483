/** A form's submit button: disabled while the form's write is under way, saying what is happening. */
export function SubmitButton({ busy, busyLabel, label }: { busy: boolean; busyLabel: string; label: string }) {
  return (
    <div className="actions">
      <button type="submit" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}
