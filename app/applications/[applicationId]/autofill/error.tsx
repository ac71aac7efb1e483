'use client';

/** A failure while rendering the Autofill page: say so and offer another try (saved text and documents are kept). */
export default function AutofillError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="notice warning" role="alert">
      <h1>Autofill could not be shown</h1>
      <p>Text and documents already saved are kept.</p>
      {error.digest && <p className="muted">Reference {error.digest}</p>}
      <button type="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
