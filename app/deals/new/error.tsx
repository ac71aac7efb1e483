'use client';

import { PageError, type ErrorBoundaryProps } from '@/components/ui/page-error';

export default function NewDealError(props: ErrorBoundaryProps) {
  return <PageError title="The deal form could not be shown" message="The Portal could not be reached or refused the request. Nothing was changed." {...props} />;
}
