import type { DealSummaryView } from '@/lib/bff/deals';

/** Who a deal is for, as people say it: no recipient means the Portal itself. */
export const recipientLabel = (recipient: DealSummaryView['recipient']) => (recipient ? (recipient.name ?? recipient.id) : 'Portal');

/**
 * A deal's page. A deal does not name its business, so a link made where the business is known carries
 * it along (the page checks it before showing it).
 */
export const dealHref = (dealId: string, businessId?: string | null) =>
  `/deals/${encodeURIComponent(dealId)}${businessId ? `?business_id=${encodeURIComponent(businessId)}` : ''}`;

/** "open" → "Open": the Portal gives a deal's status as a bare key. */
export const statusLabel = (status: string | null) => {
  if (!status) return '—';
  const words = status.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
