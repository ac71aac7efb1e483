import { z } from 'zod';
import { DateTime, NonNegativeInt, PositiveRevision, Uri, freeText, page } from './common';
import { ApplicationId, AutofillRunId, AutofillSuggestionId } from './ids';

const AppRef = z.strictObject({ id: ApplicationId, object: z.literal('client_intake_application') });

export const PREPARATION_FILE_STATUSES = ['pending', 'running', 'success', 'failed'] as const;
const AI_MODES = ['fast', 'thinking'] as const;
export const AiMode = z.enum(AI_MODES);

/*
 * Objects the spec types only as "object" (evidence sources, uploaded_file, failure, the suggestion's run,
 * source and concerns) are completed by the sandbox: `…Exact` schemas hold exactly its fields (its
 * conformance tests use them), while the resources accept any object there, keeping the known fields when
 * present, so the BFF works unchanged against a Portal whose inner fields differ.
 */
const tolerant = <T extends z.ZodRawShape>(exact: z.ZodObject<T>) => z.looseObject(exact.shape).partial();

const EVIDENCE_SOURCE_KINDS = ['file', 'text'] as const;

/** One piece of evidence a run can read: the text input, or an uploaded file. */
export const EvidenceSourceExact = z.strictObject({
  id: z.string().regex(/^afev_[a-z0-9]+$/),
  object: z.literal('autofill_evidence_source'),
  kind: z.enum(EVIDENCE_SOURCE_KINDS),
  /** The file's name; null for the text input. */
  name: z.string().nullable(),
  status: z.enum(PREPARATION_FILE_STATUSES),
  /** Set when status is failed: unsupported_type, binary_content, corrupt_pdf,
   *  encrypted_pdf or no_text (kept a string for codes added later). */
  failure_code: z.string().nullable(),
  /** Set when status is failed: what went wrong, for a person. */
  failure_reason: z.string().nullable(),
  /** Read by a start that names no selected_evidence_source_ids (usable evidence is selected). */
  selected: z.boolean(),
  content_type: z.string(),
  size: NonNegativeInt,
  created_at: DateTime,
  updated_at: DateTime,
});
export const EvidenceSource = tolerant(EvidenceSourceExact);
export type EvidenceSource = z.infer<typeof EvidenceSource>;
/** uploaded_file: the evidence source of the file an upload just delivered. */
const PreparationUploadedFile = EvidenceSource;

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
  .strictObject({ ai_mode: AiMode.optional(), text_input: freeText(z.string().max(100_000)).optional() })
  .refine((b) => b.ai_mode !== undefined || b.text_input !== undefined, {
    message: 'at least one of ai_mode and text_input is required',
  });
export type PreparationUpdateBody = z.infer<typeof PreparationUpdateBody>;

/** Request for an evidence upload credential (sandbox completion): no fields, the file is named on transfer. */
export const EvidenceUploadRequestBody = z.strictObject({});

/** Autofill start body (spec 2.11). */
export const AutofillStartBody = z.strictObject({
  expected_preparation_revision: PositiveRevision,
  ai_mode: AiMode.optional(),
  selected_evidence_source_ids: z.array(z.string()).optional(),
});
export type AutofillStartBody = z.infer<typeof AutofillStartBody>;

export const RUN_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;

/** Why a run failed (sandbox completion of `failure`). */
const AutofillRunFailureExact = z.strictObject({ code: z.string(), message: z.string() });
const AutofillRunFailure = tolerant(AutofillRunFailureExact);

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
  failure: AutofillRunFailure.nullable(),
  created_at: DateTime,
  updated_at: DateTime,
  url: Uri,
  suggestions_url: Uri,
  retry_url: Uri,
});
export type AutofillRun = z.infer<typeof AutofillRun>;
export const AutofillRunPage = page(AutofillRun);

export const SUGGESTION_STATUSES = ['pending', 'accepted', 'dismissed', 'stale', 'failed'] as const;

/** The run a suggestion came from. */
export const AutofillSuggestionRunRefExact = z.strictObject({
  id: AutofillRunId,
  object: z.literal('client_intake_application_autofill_run'),
  url: Uri,
});

/** Where the proposed value was found: the evidence source and the line it stands on. */
export const AutofillSuggestionSourceExact = z.strictObject({
  kind: z.enum(EVIDENCE_SOURCE_KINDS),
  evidence_source_id: z.string(),
  /** Present for a file. */
  file_name: z.string().optional(),
  /** The matching line, at most 300 characters. */
  excerpt: z.string().max(300),
  /** 0 to 1. */
  confidence: z.number().min(0).max(1),
});

export const AutofillSuggestionConcernExact = z.strictObject({ code: z.string(), message: z.string() });
const AutofillSuggestionRunRef = tolerant(AutofillSuggestionRunRefExact);
const AutofillSuggestionSource = tolerant(AutofillSuggestionSourceExact);
const AutofillSuggestionConcern = tolerant(AutofillSuggestionConcernExact);

export const SuggestionsQuery = z.strictObject({
  page_size: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().min(1).optional(),
  status: z.enum(SUGGESTION_STATUSES).optional(),
});

/** 2.13 Autofill suggestion. */
export const AutofillSuggestion = z.strictObject({
  id: AutofillSuggestionId,
  object: z.literal('client_intake_application_autofill_suggestion'),
  run: AutofillSuggestionRunRef,
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
  source: AutofillSuggestionSource,
  concerns: z.array(AutofillSuggestionConcern),
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
