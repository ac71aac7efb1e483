'use client';

/** The Portal could not be read for a businesses page: say so and offer another try. */
export default function BusinessesError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="notice warning" role="alert">
      <h1>The businesses could not be shown</h1>
      <p>The Portal did not answer as expected. Try again in a moment.</p>
      {error.digest && <p className="muted">Reference {error.digest}</p>}
      <button type="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
