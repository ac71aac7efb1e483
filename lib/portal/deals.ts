import { z } from 'zod';
import { DateTime, Revision, Uri, freeText, page } from './common';
import { BusinessId, DealApplicationId, DealId, DealPipelineId, DealStageId, MatchId, ProjectId, RecipientId } from './ids';
import { DealMatchRef } from './projects';
import { workflowSchemas } from './workflow';

const dealWorkflow = workflowSchemas('deal', DealPipelineId, DealStageId);

/**
 * 2.14 Deal. The application summary, project and recipient are objects the spec leaves open. `match`
 * (DESIGN.md §6): the funding match a deal was made from, or null; absent from a Portal without §6.
 */
export const Deal = z.strictObject({
  id: DealId,
  object: z.literal('deal'),
  revision: Revision,
  application: z.looseObject({}),
  project: z.looseObject({}).nullable(),
  recipient: z.looseObject({}).nullable(),
  match: DealMatchRef.nullable().optional(),
  name: z.string(),
  status: z.string().nullable(),
  workflow: dealWorkflow.workflow,
  created_at: DateTime,
  updated_at: DateTime,
  url: Uri,
  is_sample: z.boolean().optional(),
});
export type Deal = z.infer<typeof Deal>;
export const DealPage = page(Deal);

/**
 * Deal create body (DESIGN.md §5): no recipient_id means a deal for the Portal itself. A deal for a funding
 * match (§6) names both project_id and match_id, and the match's recipient as recipient_id.
 */
export const DealCreateBody = z.strictObject({
  name: freeText(z.string().trim().min(1).max(255)),
  business_id: BusinessId,
  recipient_id: RecipientId.optional(),
  project_id: ProjectId.optional(),
  match_id: MatchId.optional(),
});
export type DealCreateBody = z.infer<typeof DealCreateBody>;

/** 2.15 Deal application. */
export const DealApplication = z.strictObject({
  id: DealApplicationId,
  object: z.literal('deal_application'),
  revision: Revision,
  answers_revision: Revision,
  status: z.string().nullable(),
  submitted_at: DateTime.nullable(),
  created_at: DateTime,
  updated_at: DateTime,
  url: Uri,
  answers_url: Uri,
  contract_url: Uri,
  submit_url: Uri,
});
export type DealApplication = z.infer<typeof DealApplication>;

export const DealPipelinePage = dealWorkflow.pipelinePage;
export const DealStagePage = dealWorkflow.stagePage;

/** Recipients (DESIGN.md §5): the organisations a deal can be made for. */
export const Recipient = z.strictObject({ id: RecipientId, object: z.literal('recipient'), name: z.string() });
export type Recipient = z.infer<typeof Recipient>;
export const RecipientPage = page(Recipient);
