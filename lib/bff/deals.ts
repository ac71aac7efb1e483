import { z } from 'zod';
import { BusinessId, DealCreateBody, PageQuery, RecipientId } from '@/lib/portal';
import type { ApplicationView } from './applications';
import { Named, pageOf } from './businesses';

/**
 * What the BFF sends the browser about deals, recipients and deal applications, without any Portal URL.
 * A deal application's read, contract and answers use the views of lib/bff/applications (kind 'deal'), and
 * its repeatable items those of lib/bff/items, so one form renders both kinds of application.
 */

export const DealsQuery = PageQuery.extend({ business_id: BusinessId.optional() });
export type DealsQuery = z.infer<typeof DealsQuery>;

/** Deal create body (DESIGN.md §5): no recipient_id means a deal for the Portal itself. */
export const DealCreateInput = DealCreateBody;
export type DealCreateInput = z.infer<typeof DealCreateInput>;

export const DealSummaryView = z.object({
  id: z.string(),
  name: z.string(),
  revision: z.number().int(),
  status: z.string().nullable(),
  workflow: z.object({ pipeline: Named, stage: Named }),
  application: z.object({ id: z.string() }).nullable(),
  recipient: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  /** The funding project a deal was made for from a match (DESIGN.md §6). */
  project: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  is_sample: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DealSummaryView = z.infer<typeof DealSummaryView>;

export const DealListView = pageOf(DealSummaryView);
export type DealListView = z.infer<typeof DealListView>;

/** A deal as a row of a deals table, from the Portal's deal or the read model's copy (components get this). */
export interface DealRowView {
  id: string;
  name: string;
  is_sample: boolean;
  /** Who the deal is for: a recipient's name, or "Portal" for the Portal's own deal. */
  for: string;
  stage: string | null;
  status: string | null;
  created_at: string | null;
  /** The business it was made for, where known (the Portal's deal does not name it). */
  business: { id: string; name: string | null } | null;
}

export { newestDealsFirst } from './deal-order';

/** One deal as read (or as a write left it), with the ETag a stage transition quotes in If-Match. */
export const DealView = DealSummaryView.extend({ etag: z.string() });
export type DealView = z.infer<typeof DealView>;

export const RecipientListView = pageOf(Named);
export type RecipientListView = z.infer<typeof RecipientListView>;

/**
 * The "create a deal" form as the person fills it: who the deal is for is a choice of its own, and a
 * recipient is asked for only when the deal is not for the Portal itself. Messages are the ones shown.
 */
export const DealCreateForm = z
  .object({
    business_id: z.string().min(1, 'Choose the business the deal is for.').pipe(BusinessId),
    name: z.string().trim().min(1, 'Name the deal.').max(255, 'Use at most 255 characters.'),
    for: z.enum(['portal', 'recipient']),
    recipient_id: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.for !== 'recipient') return;
    if (!RecipientId.safeParse(v.recipient_id).success) {
      ctx.addIssue({ code: 'custom', path: ['recipient_id'], message: 'Choose the recipient the deal is made for.' });
    }
  });
export type DealCreateForm = z.input<typeof DealCreateForm>;

/** The create body of a filled form: no recipient_id for a deal of the Portal itself. */
export function dealCreateInputOf(form: z.output<typeof DealCreateForm>): DealCreateInput {
  const { business_id, name } = form;
  return form.for === 'recipient' ? { business_id, name, recipient_id: form.recipient_id } : { business_id, name };
}

/** A deal's application as the deal page summarises it: its status and how much of it is answered. */
export interface DealApplicationSummary {
  application: ApplicationView;
  title: string;
  /** Required answers given, counted as the form counts them (a deal application carries no progress). */
  progress: { answered: number; total: number; percent: number };
}
