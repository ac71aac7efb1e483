'use client';

import { PageError, type ErrorBoundaryProps } from '@/components/ui/page-error';

/** The business could not be read: keep the page, offer another try. */
export default function BusinessError(props: ErrorBoundaryProps) {
  return <PageError title="The business could not be shown" message="The Portal did not answer as expected. Try again in a moment." {...props} />;
}
