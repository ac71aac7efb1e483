'use client';

import { DealsPageError } from '@/components/deals/page-error';

export default function NewDealError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <DealsPageError title="The deal form could not be shown" error={error} reset={reset} />;
}
