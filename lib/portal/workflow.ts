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
    stagePage: page(z.strictObject({ id: stageId, object: z.literal(`${kind}_stage`), name: z.string(), order: z.int(), pipeline: pipelineRef })),
  };
}
