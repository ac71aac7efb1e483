import 'server-only';
import type { BoardCardView } from '@/lib/bff/workspace';
import type { Db } from '@/server/db/types';
import { answersActivity } from './answers-activity';

/**
 * The cards of one pipeline's board: per stage, the `perStage` businesses with the newest activity, and how
 * many each stage holds in all. One query for the cards (a window per stage), one for the counts.
 */
export async function boardCards(db: Db, pipelineId: string, perStage: number): Promise<{ cards: BoardCardView[]; totals: Map<string, number> }> {
  await answersActivity(db).settled();
  const [rows, counts] = await Promise.all([
    db.query<{ id: string; name: string | null; stage_id: string; progress_percent: number | null; last_activity_at: Date | null }>(
      `SELECT id, name, stage_id, progress_percent, last_activity_at FROM (
         SELECT id, name, stage_id, progress_percent, last_activity_at,
                row_number() OVER (PARTITION BY stage_id ORDER BY last_activity_at DESC NULLS LAST, id) AS n
           FROM workspace_businesses WHERE pipeline_id = $1 AND stage_id IS NOT NULL) ranked
        WHERE n <= $2 ORDER BY stage_id, n`,
      [pipelineId, perStage],
    ),
    db.query<{ stage_id: string; n: number }>(
      'SELECT stage_id, count(*)::int AS n FROM workspace_businesses WHERE pipeline_id = $1 AND stage_id IS NOT NULL GROUP BY stage_id',
      [pipelineId],
    ),
  ]);
  return {
    cards: rows.map((r) => ({ ...r, last_activity_at: r.last_activity_at ? r.last_activity_at.toISOString() : null })),
    totals: new Map(counts.map((c) => [c.stage_id, c.n])),
  };
}
