import { z } from 'zod';
import { DateTime, Revision, Uri } from './common';
import { BusinessSummary } from './business';
import { ApplicationId } from './ids';

export const ApplicationProgress = z.strictObject({
  completed_items: z.int().min(0),
  total_items: z.int().min(0),
  percent: z.int().min(0).max(100),
});
export type ApplicationProgress = z.infer<typeof ApplicationProgress>;

const ApplicationStatus = z.strictObject({
  key: z.string(),
  label: z.string(),
  updated_at: DateTime.nullable(),
});

/** 2.8 Client intake application. */
export const Application = z.strictObject({
  id: ApplicationId,
  object: z.literal('client_intake_application'),
  revision: Revision,
  answers_revision: Revision.nullable(),
  business: BusinessSummary,
  status: ApplicationStatus.nullable(),
  progress: ApplicationProgress.nullable(),
  submitted_at: DateTime.nullable(),
  updated_at: DateTime,
  url: Uri,
  answers_url: Uri,
  contract_url: Uri,
  submit_url: Uri,
  autofill_preparation_url: Uri,
  autofill_runs_url: Uri,
});
export type Application = z.infer<typeof Application>;

/** Reads and submit wrap the application as {application: ...}. */
export const ApplicationEnvelope = z.strictObject({ application: Application });
export type ApplicationEnvelope = z.infer<typeof ApplicationEnvelope>;
