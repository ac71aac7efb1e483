'use client';

export interface ErrorBoundaryProps {
  error: Error & { digest?: string };
  reset: () => void;
}

/** A page that failed to render (an error.tsx): what failed, what is safe, its reference, another try. */
export function PageError({ title, message, error, reset }: ErrorBoundaryProps & { title: string; message: string }) {
  return (
    <div className="notice warning" role="alert">
      <h1>{title}</h1>
      <p>{message}</p>
      {error.digest && <p className="muted">Reference {error.digest}</p>}
      <button type="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
