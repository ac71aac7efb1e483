import { z } from 'zod';

/** Largest page of the audit log (server/audit MAX_AUDIT_PAGE). */
const MAX_AUDIT_PAGE_SIZE = 200;

export const AuditQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE_SIZE).optional(),
  /** `next_before` of the previous page. */
  before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** One write made through the BFF, as staff see it (no actor ids, no detail). */
export const AuditItemView = z.object({
  id: z.int(),
  at: z.string(),
  actor_kind: z.enum(['user', 'invitation']),
  actor_label: z.string(),
  operation: z.string(),
  object_type: z.string(),
  object_id: z.string().nullable(),
  upstream_request_id: z.string().nullable(),
  outcome: z.enum(['success', 'failure']),
  status: z.int(),
});
export type AuditItemView = z.infer<typeof AuditItemView>;

/** Newest first; pass `next_before` as `before` for the next (older) page, null on the last one. */
export const AuditPageView = z.object({ items: z.array(AuditItemView), next_before: z.int().nullable() });
export type AuditPageView = z.infer<typeof AuditPageView>;
