'use client';

import { PageError, type ErrorBoundaryProps } from '@/components/ui/page-error';

export default function DealError(props: ErrorBoundaryProps) {
  return <PageError title="The deal could not be shown" message="The Portal could not be reached or refused the request. Nothing was changed." {...props} />;
}
