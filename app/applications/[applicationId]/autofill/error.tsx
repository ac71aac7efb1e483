'use client';

import { PageError, type ErrorBoundaryProps } from '@/components/ui/page-error';

/** A failure while rendering the Autofill page: say so and offer another try (saved text and documents are kept). */
export default function AutofillError(props: ErrorBoundaryProps) {
  return <PageError title="Autofill could not be shown" message="Text and documents already saved are kept." {...props} />;
}
