'use client';

import { PageError, type ErrorBoundaryProps } from '@/components/ui/page-error';

/** A failure while rendering the project: say so, keep the page, offer another try (criteria typed stay on the device). */
export default function FundingProjectError(props: ErrorBoundaryProps) {
  return <PageError title="The funding project could not be shown" message="Any criteria you typed are kept on this device and will be sent when the form opens again." {...props} />;
}
