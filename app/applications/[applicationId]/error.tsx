'use client';

import { PageError, type ErrorBoundaryProps } from '@/components/ui/page-error';

/** A failure while rendering the form: say so, keep the page, offer another try (edits stay on the device). */
export default function ApplicationError(props: ErrorBoundaryProps) {
  return <PageError title="The application could not be shown" message="Any answers you typed are kept on this device and will be sent when the form opens again." {...props} />;
}
