import { z } from 'zod';
import { DateTime, NonNegativeInt, PositiveRevision, Uri, page } from './common';
import { ApplicationId, AutofillRunId, AutofillSuggestionId } from './ids';

const AppRef = z.strictObject({ id: ApplicationId, object: z.literal('client_intake_application') });

export const PREPARATION_FILE_STATUSES = ['pending', 'running', 'success', 'failed'] as const;
export const AI_MODES = ['fast', 'thinking'] as const;
export const AiMode = z.enum(AI_MODES);

/** Objects the spec types only as "object" stay loose: the sandbox's fields are listed, others are kept. */
export const EvidenceSource = z.looseObject({ id: z.string().optional() });
export const PreparationUploadedFile = z.looseObject({});

/** 2.11 Autofill preparation. */
export const AutofillPreparation = z.strictObject({
  object: z.literal('client_intake_application_autofill_preparation'),
  application: AppRef,
  start_url: Uri,
  revision: PositiveRevision,
  text_input: z.string().nullable(),
  ai_mode: AiMode,
  file_count: NonNegativeInt,
  files: z.array(z.strictObject({ name: z.string().nullable(), status: z.enum(PREPARATION_FILE_STATUSES) })),
  selected_evidence_source_count: NonNegativeInt,
  evidence_sources: z.array(EvidenceSource),
  can_start: z.boolean(),
  uploaded_file: PreparationUploadedFile.optional(),
});
export type AutofillPreparation = z.infer<typeof AutofillPreparation>;

/** Preparation update body: at least one of ai_mode and text_input, nothing else (spec 2.11). */
export const PreparationUpdateBody = z
  .strictObject({ ai_mode: AiMode.optional(), text_input: z.string().max(100_000).optional() })
  .refine((b) => b.ai_mode !== undefined || b.text_input !== undefined, {
    message: 'at least one of ai_mode and text_input is required',
  });
export type PreparationUpdateBody = z.infer<typeof PreparationUpdateBody>;

/** Autofill start body (spec 2.11). */
export const AutofillStartBody = z.strictObject({
  expected_preparation_revision: PositiveRevision,
  ai_mode: AiMode.optional(),
  selected_evidence_source_ids: z.array(z.string()).optional(),
});
export type AutofillStartBody = z.infer<typeof AutofillStartBody>;

export const RUN_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;

/** 2.12 Autofill run. */
export const AutofillRun = z.strictObject({
  id: AutofillRunId,
  object: z.literal('client_intake_application_autofill_run'),
  application: AppRef,
  status: z.enum(RUN_STATUSES),
  progress: z.strictObject({ step: z.string(), completed_units: NonNegativeInt, total_units: NonNegativeInt }),
  suggestion_count: NonNegativeInt,
  warning_count: NonNegativeInt,
  can_retry: z.boolean(),
  attempt_sequence: PositiveRevision.nullable(),
  failure: z.looseObject({}).nullable(),
  created_at: DateTime,
  updated_at: DateTime,
  url: Uri,
  suggestions_url: Uri,
  retry_url: Uri,
});
export type AutofillRun = z.infer<typeof AutofillRun>;
export const AutofillRunPage = page(AutofillRun);

export const SUGGESTION_STATUSES = ['pending', 'accepted', 'dismissed', 'stale', 'failed'] as const;

/** 2.13 Autofill suggestion. */
export const AutofillSuggestion = z.strictObject({
  id: AutofillSuggestionId,
  object: z.literal('client_intake_application_autofill_suggestion'),
  run: z.looseObject({}),
  status: z.enum(SUGGESTION_STATUSES),
  section_label: z.string().nullable(),
  question_label: z.string().nullable(),
  field_label: z.string().nullable(),
  display_order: z.int(),
  suggestion_kind: z.string(),
  target_attribute: z.string(),
  target_scope: z.string().nullable(),
  current_value: z.unknown(),
  proposed_value: z.unknown(),
  source: z.looseObject({}),
  concerns: z.array(z.looseObject({})),
  created_at: DateTime,
  updated_at: DateTime,
});
export type AutofillSuggestion = z.infer<typeof AutofillSuggestion>;
export const AutofillSuggestionPage = page(AutofillSuggestion);

/** Acceptance result (spec 2.13). */
export const SuggestionAcceptResult = z.strictObject({
  suggestion: AutofillSuggestion,
  answers_revision: z.int().min(0),
});
