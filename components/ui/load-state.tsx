'use client';

import type { ReactNode } from 'react';

/** A read that failed: what could not be loaded and why, with another try. */
export function LoadError({ children, onRetry }: { children: ReactNode; onRetry(): void }) {
  return (
    <div className="notice warning" role="alert">
      <p>{children}</p>
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

interface QueryLike {
  isPending: boolean;
  error: Error | null;
  refetch(): unknown;
}

/** A section's read while it loads or when it failed, e.g. what="the people": "Loading the people…". */
export function LoadState({ query, what }: { query: QueryLike; what: string }) {
  return (
    <>
      {query.isPending && (
        <p role="status" className="loading">
          Loading {what}…
        </p>
      )}
      {query.error && (
        <LoadError onRetry={() => void query.refetch()}>
          {what.charAt(0).toUpperCase() + what.slice(1)} could not be loaded: {query.error.message}
        </LoadError>
      )}
    </>
  );
}
