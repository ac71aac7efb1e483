'use client';

import { PageError, type ErrorBoundaryProps } from '@/components/ui/page-error';

/** A failure while rendering the review queue: say so and offer another try (decisions made are kept). */
export default function ReviewError(props: ErrorBoundaryProps) {
  return <PageError title="The suggestions could not be shown" message="Suggestions already accepted or dismissed stay so." {...props} />;
}
