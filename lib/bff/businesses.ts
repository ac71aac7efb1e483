import { z } from 'zod';
import { BusinessCreateBody, PageQuery, Person, StageTransitionBody } from '@/lib/portal';

/**
 * What the BFF sends the browser about the Portal, its businesses and their workflows: the Portal's
 * resources without any Portal URL (DESIGN.md §1), plus the ETag the browser quotes back in If-Match.
 */

/** The API root as staff need it (which lead sources a business can be created for); never the key itself. */
export const PortalView = z.object({
  portal: z.object({ id: z.string().nullable(), name: z.string() }),
  /** Null when the Portal does not say (the spec does not promise it). */
  environment: z.enum(['test', 'live']).nullable(),
  key: z.object({ kind: z.enum(['portal', 'source']), permissions: z.array(z.string()), channel_slugs: z.array(z.string()) }),
});
export type PortalView = z.infer<typeof PortalView>;

/** Query of the paged lists (businesses, pipelines, recipients): passed upstream unchanged. */
export const ListQuery = PageQuery;
export type ListQuery = z.infer<typeof ListQuery>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next_cursor: z.string().nullable(), previous_cursor: z.string().nullable() });

export const Named = z.object({ id: z.string(), name: z.string() });

const BusinessSummaryView = z.object({ id: z.string(), name: z.string().nullable() });
export const BusinessListView = pageOf(BusinessSummaryView);
export type BusinessListView = z.infer<typeof BusinessListView>;

/** Business create body: the Portal's own (DESIGN.md §5), validated before it goes upstream. */
export const BusinessCreateInput = BusinessCreateBody;
export type BusinessCreateInput = z.infer<typeof BusinessCreateInput>;

/**
 * A document slot of a new business: upload to POST /api/businesses/{business_id}/uploads/{id}. The signed
 * upload URL behind it stays on the server.
 */
export const UploadSlotView = z.object({ id: z.string(), request_path: z.string(), multiple: z.boolean() });
export type UploadSlotView = z.infer<typeof UploadSlotView>;

export const BusinessCreatedView = z.object({
  business: BusinessSummaryView,
  application: z.object({ id: z.string() }),
  warnings: z.array(z.object({ code: z.string().nullable(), message: z.string().nullable() })),
  uploads: z.array(UploadSlotView),
  /** What the create form gave the application's answers: the questions filled in, or why none could be. */
  prefilled: z.object({ questions: z.array(z.string()), problem: z.string().nullable() }),
});
export type BusinessCreatedView = z.infer<typeof BusinessCreatedView>;

/** Query of a document upload: the file's name (its type is the request's Content-Type). */
export const UploadQuery = z.strictObject({ filename: z.string().trim().min(1).max(255) });

export const UploadResultView = z.object({
  request_path: z.string(),
  filename: z.string(),
  size: z.number().int(),
  application_file_count: z.number().int(),
  application_file_bytes: z.number().int(),
});
export type UploadResultView = z.infer<typeof UploadResultView>;

export const BusinessView = z.object({
  id: z.string(),
  name: z.string().nullable(),
  revision: z.number().int(),
  status: z.object({ pipeline: z.string(), stage: z.string(), updated_at: z.string() }),
  workflow: z.object({ pipeline: Named, stage: Named }),
  is_sample: z.boolean(),
  application: z.object({ id: z.string() }).nullable(),
  etag: z.string(),
});
export type BusinessView = z.infer<typeof BusinessView>;

export const StageTransitionInput = StageTransitionBody;
export type StageTransitionInput = z.infer<typeof StageTransitionInput>;

export const BusinessStageTransitionView = z.object({
  id: z.string(),
  stage: Named,
  revision: z.number().int(),
  updated_at: z.string(),
  etag: z.string(),
});
export type BusinessStageTransitionView = z.infer<typeof BusinessStageTransitionView>;

/** A person of a business as the Portal has it, without its frontend link. */
const PersonView = z.object(Person.omit({ object: true, frontend_link: true }).shape);

export const PeopleView = z.object({ items: z.array(PersonView), revision: z.number().int() });
export type PeopleView = z.infer<typeof PeopleView>;

/** Every stage of one pipeline in order (business and deal workflows alike). */
export const StagesView = z.object({
  pipeline: Named,
  /** Where the business or deal is now. */
  current_stage_id: z.string(),
  items: z.array(z.object({ id: z.string(), name: z.string(), order: z.number().int() })),
});
export type StagesView = z.infer<typeof StagesView>;

export const PipelineListView = pageOf(Named);
export type PipelineListView = z.infer<typeof PipelineListView>;
