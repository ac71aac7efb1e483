'use client';

import { PageError, type ErrorBoundaryProps } from '@/components/ui/page-error';

/** The Portal could not be read for a businesses page: say so and offer another try. */
export default function BusinessesError(props: ErrorBoundaryProps) {
  return <PageError title="The businesses could not be shown" message="The Portal did not answer as expected. Try again in a moment." {...props} />;
}
