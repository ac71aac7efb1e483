import 'server-only';
import type { z } from 'zod';
import type { StagesView } from '@/lib/bff/businesses';
import { portalRequest } from '@/server/portal';

export type StagePage = z.ZodType<{ items: Array<{ id: string; name: string; order?: number }>; next_cursor: string | null }>;

/**
 * A pipeline's stages in its order: by `order` when every stage has one (DESIGN.md's completion), else as the
 * Portal lists them (the spec shows no order). The view's `order` is the position in that list.
 */
export function orderedStages<S extends { id: string; name: string; order?: number }>(stages: readonly S[]): Array<{ id: string; name: string; order: number }> {
  const ordered = stages.every((s) => typeof s.order === 'number') ? [...stages].sort((a, b) => a.order! - b.order!) : [...stages];
  return ordered.map((s, i) => ({ id: s.id, name: s.name, order: i }));
}

// Pipelines have a handful of stages; the bound only stops a misbehaving upstream from looping us forever.
const MAX_PAGES = 20;

/**
 * Every stage of a pipeline, following the stages_url a business or deal read returned (the spec's way to
 * reach stages), walking its pages in full so the browser gets one ordered list.
 */
export async function readWorkflowStages(
  workflow: { stages_url: string; pipeline: { id: string; name: string }; stage: { id: string } },
  schema: StagePage,
): Promise<{ view: StagesView; requestId: string | null }> {
  const listed: Array<{ id: string; name: string; order?: number }> = [];
  let cursor: string | null = null;
  let requestId: string | null = null;
  for (let n = 0; n < MAX_PAGES; n++) {
    const res: { data: z.output<StagePage>; requestId: string | null } = await portalRequest({
      url: workflow.stages_url,
      schema,
      query: { page_size: 100, cursor },
    });
    listed.push(...res.data.items);
    requestId = res.requestId;
    cursor = res.data.next_cursor;
    if (!cursor) break;
  }
  return { view: { pipeline: workflow.pipeline, current_stage_id: workflow.stage.id, items: orderedStages(listed) }, requestId };
}
