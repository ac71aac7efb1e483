'use client';

/** The business could not be read: keep the page, offer another try. */
export default function BusinessError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="notice warning" role="alert">
      <h1>The business could not be shown</h1>
      <p>The Portal did not answer as expected. Try again in a moment.</p>
      {error.digest && <p className="muted">Reference {error.digest}</p>}
      <button type="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
