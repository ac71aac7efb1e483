'use client';

import { DealsPageError } from '@/components/deals/page-error';

export default function DealError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <DealsPageError title="The deal could not be shown" error={error} reset={reset} />;
}
