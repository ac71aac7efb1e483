import type { MatchView, ProjectView } from '@/lib/bff/projects';
import type { CriterionStatus, Fit, ProductKind } from '@/lib/portal';

/** Words the funding pages show for the Portal's keys. */

export const FIT_LABEL: Record<Fit, string> = { strong: 'Strong fit', good: 'Good fit', possible: 'Possible fit', unlikely: 'Unlikely fit' };

export const PRODUCT_KIND_LABEL: Record<ProductKind, string> = {
  term_loan: 'Term loan',
  line_of_credit: 'Line of credit',
  equipment_finance: 'Equipment finance',
  invoice_finance: 'Invoice finance',
  merchant_cash_advance: 'Merchant cash advance',
  asset_finance: 'Asset finance',
  grant: 'Grant',
};

export const PROJECT_STATUS_LABEL: Record<ProjectView['status'], string> = { draft: 'Draft', matching: 'Finding funders', matched: 'Matched' };

export const CRITERION_LABEL: Record<CriterionStatus, string> = { met: 'Met', not_met: 'Not met', unknown: 'Unknown' };

export const DECISION_LABEL: Record<MatchView['decision'], string> = { none: 'Not decided', shortlisted: 'Shortlisted', dismissed: 'Dismissed' };

export const projectHref = (projectId: string) => `/projects/${encodeURIComponent(projectId)}`;

const money = (currency: string) => new Intl.NumberFormat('en-GB', { style: 'currency', currency, maximumFractionDigits: 0 });

/** "£25,000 – £500,000" */
export const amountText = (r: MatchView['amount_range']) => `${money(r.currency).format(r.min)} – ${money(r.currency).format(r.max)}`;
/** "6.5% – 12%", or "Not given" */
export const rateText = (r: MatchView['rate_range']) => (r ? `${r.min}% – ${r.max}%` : 'Not given');
/** "12 – 60 months", or "Not given" */
export const termText = (r: MatchView['term_months']) => (r ? `${r.min} – ${r.max} months` : 'Not given');
