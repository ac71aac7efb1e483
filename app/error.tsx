'use client';

import { PageError, type ErrorBoundaryProps } from '@/components/ui/page-error';

/** Any page without an error page of its own: say what happened, offer another try and a way home. */
export default function AppError(props: ErrorBoundaryProps) {
  return <PageError title="This page could not be shown" message="Something went wrong while it was being prepared. Try again in a moment." {...props} />;
}
