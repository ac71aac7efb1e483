import { z } from 'zod';
import { DateTime, NonNegativeInt, Revision, Uri, freeText, page } from './common';
import { ApplicationId, BusinessId, BusinessPipelineId, BusinessStageId, FileUploadId } from './ids';
import { workflowSchemas } from './workflow';

/** 2.2 Business (summary). */
export const BusinessSummary = z.strictObject({
  id: BusinessId,
  object: z.literal('business'),
  name: z.string().nullable(),
  url: Uri,
});
export type BusinessSummary = z.infer<typeof BusinessSummary>;
export const BusinessPage = page(BusinessSummary);
export type BusinessPage = z.infer<typeof BusinessPage>;

const ApplicationRef = z.strictObject({
  id: ApplicationId,
  object: z.literal('client_intake_application'),
  url: Uri,
});

/** One upload credential (2.3 file_uploads item; also the reply of an application's file_uploads_url). */
export const FileUploadCredential = z.strictObject({
  id: FileUploadId,
  object: z.literal('file_upload'),
  request_path: z.string(),
  upload_url: Uri,
  multiple: z.boolean(),
});
export type FileUploadCredential = z.infer<typeof FileUploadCredential>;

/** Warnings are objects the spec does not detail: the sandbox sends {code, message}. */
const Warning = z.looseObject({ code: z.string().optional(), message: z.string().optional() });

/** 2.3 Business create result. */
export const BusinessCreateResult = z.strictObject({
  business: BusinessSummary,
  application: ApplicationRef,
  invitation_url: Uri.nullable(),
  file_uploads: z.array(FileUploadCredential),
  warnings: z.array(Warning),
});
export type BusinessCreateResult = z.infer<typeof BusinessCreateResult>;

const ContactInput = z.strictObject({
  full_name: freeText(z.string().trim().min(1).max(255)),
  email: z.email().max(255),
  phone_number: freeText(z.string().max(64)).optional(),
  company_name: freeText(z.string().max(255)).optional(),
  job_title: freeText(z.string().max(255)).optional(),
});

/** Business create body (DESIGN.md §5). */
export const BusinessCreateBody = z.strictObject({
  name: freeText(z.string().trim().min(1).max(255)),
  source_channel_id: z.string().min(1).max(255).optional(),
  contact: ContactInput.optional(),
});
export type BusinessCreateBody = z.infer<typeof BusinessCreateBody>;

/** 2.4 Business file upload result. */
export const BusinessFileUploadResult = z.strictObject({
  request_path: z.string(),
  filename: z.string(),
  size: NonNegativeInt,
  application_file_count: NonNegativeInt,
  application_file_bytes: NonNegativeInt,
});
export type BusinessFileUploadResult = z.infer<typeof BusinessFileUploadResult>;

const businessWorkflow = workflowSchemas('business', BusinessPipelineId, BusinessStageId);

/** 2.5 Business status result. */
export const BusinessStatusResult = z.strictObject({
  business: z.strictObject({
    id: BusinessId,
    object: z.literal('business'),
    name: z.string().nullable(),
    revision: Revision,
    url: Uri,
    status: z.strictObject({ pipeline: z.string(), stage: z.string(), updated_at: DateTime }),
    workflow: businessWorkflow.workflow,
    is_sample: z.boolean().optional(),
  }),
  application: ApplicationRef.nullable(),
});
export type BusinessStatusResult = z.infer<typeof BusinessStatusResult>;

/** Stage transition body (DESIGN.md §5), shared by business and deal transitions. */
export const StageTransitionBody = z.strictObject({ stage_id: z.string().min(1).max(64) });

/** 2.6 Business stage transition result. */
export const BusinessStageTransitionResult = z.strictObject({
  id: BusinessId,
  object: z.literal('business'),
  stage: businessWorkflow.stageRef,
  revision: Revision,
  updated_at: DateTime,
});
export type BusinessStageTransitionResult = z.infer<typeof BusinessStageTransitionResult>;

export const BusinessPipelinePage = businessWorkflow.pipelinePage;
export const BusinessStagePage = businessWorkflow.stagePage;
