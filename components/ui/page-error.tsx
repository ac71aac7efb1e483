'use client';

import Link from 'next/link';

export interface ErrorBoundaryProps {
  error: Error & { digest?: string };
  reset: () => void;
  /** Reads the page from the server again and renders it (Next's router.refresh() with reset()). */
  retry?: () => void;
}

/**
 * A page that failed to render (an error.tsx): what failed, what is safe, its reference, another try. The page
 * is read before anything is sent, so its response was a 500; "Try again" reads it from the server again, since
 * what failed was a read there, and re-rendering what the browser holds would only fail the same way.
 */
export function PageError({ title, message, error, reset, retry }: ErrorBoundaryProps & { title: string; message: string }) {
  return (
    <div className="notice warning" role="alert">
      <h1>{title}</h1>
      <p>{message}</p>
      {error.digest && <p className="muted">Reference {error.digest}</p>}
      <p className="actions">
        <button type="button" onClick={retry ?? reset}>
          Try again
        </button>
        <Link href="/">Go to the home page</Link>
      </p>
    </div>
  );
}
