import 'server-only';
import type { DealRowView } from '@/lib/bff/deals';
import type { Freshness } from '@/lib/bff/workspace';
import type { Db } from '@/server/db/types';
import { readFreshness } from './queries';

export interface WorkspaceDealPage {
  items: DealRowView[];
  total: number;
  page: number;
  page_size: number;
  freshness: Freshness;
}

/**
 * Every deal newest first, with the business it was made for: the Portal lists deals oldest first and a
 * deal does not name its business, so the list is the read model's (it says how fresh it is).
 */
export async function listWorkspaceDeals(db: Db, page: number, pageSize: number): Promise<WorkspaceDealPage> {
  const [rows, count, freshness] = await Promise.all([
    db.query<{
      id: string;
      name: string;
      is_sample: boolean;
      recipient_name: string | null;
      stage_name: string | null;
      status: string | null;
      created_at: Date | null;
      business_id: string | null;
      business_name: string | null;
    }>(
      `SELECT d.id, d.name, d.is_sample, d.recipient_name, d.stage_name, d.status, d.created_at, d.business_id, b.name AS business_name
         FROM workspace_deals d LEFT JOIN workspace_businesses b ON b.id = d.business_id
        ORDER BY d.created_at DESC NULLS LAST, d.id DESC LIMIT $1 OFFSET $2`,
      [pageSize, (page - 1) * pageSize],
    ),
    db.one<{ n: number }>('SELECT count(*)::int AS n FROM workspace_deals'),
    readFreshness(db),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      is_sample: r.is_sample,
      // The read model keeps the recipient's name only: none means the Portal's own deal.
      for: r.recipient_name ?? 'Portal',
      stage: r.stage_name,
      status: r.status,
      created_at: r.created_at ? r.created_at.toISOString() : null,
      business: r.business_id ? { id: r.business_id, name: r.business_name } : null,
    })),
    total: count?.n ?? 0,
    page,
    page_size: pageSize,
    freshness,
  };
}
