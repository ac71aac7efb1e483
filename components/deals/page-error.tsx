'use client';

/** A deals page that failed to render: say so, keep the page, offer another try. */
export function DealsPageError({ title, error, reset }: { title: string; error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="notice warning" role="alert">
      <h1>{title}</h1>
      <p>The Portal could not be reached or refused the request. Nothing was changed.</p>
      {error.digest && <p className="muted">Reference {error.digest}</p>}
      <button type="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
