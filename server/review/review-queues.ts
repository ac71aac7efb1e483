import 'server-only';
import type { ReviewQueuesView } from '@/lib/bff/review';
import type { Db } from '@/server/db/types';

const LIST = 20;

/**
 * Staff home's review queues (DESIGN.md §9): the applications in review and those waiting on the client's
 * changes, each counted and listed newest change first, with the business the read model names.
 */
export async function reviewQueues(db: Db): Promise<ReviewQueuesView> {
  const [counts, rows] = await Promise.all([
    db.query<{ state: 'in_review' | 'changes_requested'; n: number }>(
      `SELECT state, count(*)::int AS n FROM review_states WHERE state IN ('in_review', 'changes_requested') GROUP BY state`,
    ),
    db.query<{ application_id: string; state: 'in_review' | 'changes_requested'; updated_at: Date; business_name: string | null }>(
      `(SELECT r.application_id, r.state, r.updated_at, b.name AS business_name FROM review_states r
          LEFT JOIN workspace_businesses b ON b.application_id = r.application_id
         WHERE r.state = 'in_review' ORDER BY r.updated_at DESC LIMIT $1)
       UNION ALL
       (SELECT r.application_id, r.state, r.updated_at, b.name AS business_name FROM review_states r
          LEFT JOIN workspace_businesses b ON b.application_id = r.application_id
         WHERE r.state = 'changes_requested' ORDER BY r.updated_at DESC LIMIT $1)`,
      [LIST],
    ),
  ]);
  const count = (state: string) => counts.find((c) => c.state === state)?.n ?? 0;
  const items = (state: string) =>
    rows
      .filter((r) => r.state === state)
      .map((r) => ({ application_id: r.application_id, business_name: r.business_name, since: r.updated_at.toISOString() }));
  return {
    in_review: { count: count('in_review'), items: items('in_review') },
    changes_requested: { count: count('changes_requested'), items: items('changes_requested') },
  };
}
