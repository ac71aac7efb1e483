import { z } from 'zod';
import { Uri, page } from './common';

/**
 * Workflows (DESIGN.md §5 `business-pipelines/`, `deal-pipelines/`): businesses and deals move through the
 * stages of a pipeline, with the same shapes for both kinds and each kind's own identifiers.
 */
export function workflowSchemas<K extends 'business' | 'deal'>(kind: K, pipelineId: z.ZodString, stageId: z.ZodString) {
  const pipelineRef = z.strictObject({ id: pipelineId, name: z.string() });
  const stageRef = z.strictObject({ id: stageId, name: z.string() });
  return {
    stageRef,
    /** Where a business or deal stands, and where its pipeline's stages are listed. */
    workflow: z.strictObject({ pipeline: pipelineRef, stage: stageRef, stages_url: Uri }),
    pipelinePage: page(z.strictObject({ id: pipelineId, object: z.literal(`${kind}_pipeline`), name: z.string(), stages_url: Uri })),
    /**
     * The spec reaches stages through stages_url but shows no field of them beyond a stage's {id, name}: the rest
     * (DESIGN.md's order and pipeline) may be missing, other properties may be present. Without `order` the list's
     * own order is the pipeline's.
     */
    stagePage: page(
      z.looseObject({ id: stageId, object: z.literal(`${kind}_stage`).optional(), name: z.string(), order: z.int().optional(), pipeline: pipelineRef.optional() }),
    ),
  };
}
