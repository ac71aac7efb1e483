'use client';

import { DealsPageError } from '@/components/deals/page-error';

export default function DealsError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <DealsPageError title="The deals could not be shown" error={error} reset={reset} />;
}
