import 'server-only';
import type { DealListView, DealSummaryView, DealView, RecipientListView } from '@/lib/bff/deals';
import { ID_PATTERNS, type Deal, type Recipient } from '@/lib/portal';
import { workflowObjectView } from '@/server/workflows/workflow-views';

/** Upstream deals turned into what the browser gets: no Portal URL leaves the server. */

const text = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * The deal's application, project and recipient are objects the spec leaves open: only their ids (and a
 * recipient's name) are taken, so whatever else they carry, URLs included, stays here.
 */
function idOf(o: Record<string, unknown> | null, pattern?: RegExp): string | null {
  const id = text(o?.id);
  return id !== null && (!pattern || pattern.test(id)) ? id : null;
}

export function dealSummaryView(d: Deal): DealSummaryView {
  const applicationId = idOf(d.application, ID_PATTERNS.dealApplication);
  const recipientId = idOf(d.recipient);
  const projectId = idOf(d.project, ID_PATTERNS.project);
  return {
    ...workflowObjectView(d),
    application: applicationId ? { id: applicationId } : null,
    recipient: recipientId ? { id: recipientId, name: text(d.recipient?.name) } : null,
    project: projectId ? { id: projectId, name: text(d.project?.name) } : null,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function dealView(d: Deal, etag: string): DealView {
  return { ...dealSummaryView(d), etag };
}

export function dealListView(page: { items: Deal[]; next_cursor: string | null; previous_cursor: string | null }): DealListView {
  return { items: page.items.map(dealSummaryView), next_cursor: page.next_cursor, previous_cursor: page.previous_cursor };
}

export function recipientListView(page: { items: Recipient[]; next_cursor: string | null; previous_cursor: string | null }): RecipientListView {
  return { items: page.items.map((r) => ({ id: r.id, name: r.name })), next_cursor: page.next_cursor, previous_cursor: page.previous_cursor };
}
