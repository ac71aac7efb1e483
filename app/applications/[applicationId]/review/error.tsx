'use client';

/** A failure while rendering the review queue: say so and offer another try (decisions made are kept). */
export default function ReviewError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="notice warning" role="alert">
      <h1>The suggestions could not be shown</h1>
      <p>Suggestions already accepted or dismissed stay so.</p>
      {error.digest && <p className="muted">Reference {error.digest}</p>}
      <button type="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
