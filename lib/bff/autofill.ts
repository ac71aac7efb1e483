import { z } from 'zod';
import {
  AiMode,
  AutofillRunId,
  AutofillStartBody,
  AutofillSuggestionId,
  PREPARATION_FILE_STATUSES,
  PreparationUpdateBody,
  RUN_STATUSES,
  SUGGESTION_STATUSES,
} from '@/lib/portal';
import { pageOf } from './businesses';
import { BffErrorBody } from './errors';

/**
 * Autofill as the browser sends and gets it: the preparation (text, AI mode, evidence), runs and their
 * suggestions, without any Portal URL. Runs and suggestions are named by id; the BFF finds their URLs.
 * The Portal types evidence sources, failures, sources and concerns only as "object", so every field read
 * from them is nullable here: a Portal that leaves one out still gives a usable view.
 */

// The evidence upload limits, kept in a module without zod for the browser's upload code.
export { EVIDENCE_UPLOAD_TYPES, MAX_EVIDENCE_BYTES } from './file-transfer';

export const EvidenceStatus = z.enum(PREPARATION_FILE_STATUSES);

/** Evidence ids are the Portal's (the spec gives no pattern): URL-safe, bounded. */
export const EvidenceSourceId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'not an evidence source id');

export const EvidenceSourceView = z.object({
  id: z.string().nullable(),
  kind: z.string().nullable(),
  /** The file's name; null for the text input. */
  name: z.string().nullable(),
  status: EvidenceStatus.nullable(),
  failure_code: z.string().nullable(),
  /** Why the file could not be read, for a person. */
  failure_reason: z.string().nullable(),
  /** Whether a start that names no selection reads it. */
  selected: z.boolean().nullable(),
  content_type: z.string().nullable(),
  size: z.number().int().nullable(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type EvidenceSourceView = z.infer<typeof EvidenceSourceView>;

export const PreparationView = z.object({
  revision: z.number().int(),
  text_input: z.string().nullable(),
  ai_mode: AiMode,
  file_count: z.number().int(),
  files: z.array(z.object({ name: z.string().nullable(), status: EvidenceStatus })),
  evidence_sources: z.array(EvidenceSourceView),
  selected_evidence_source_count: z.number().int(),
  can_start: z.boolean(),
});
export type PreparationView = z.infer<typeof PreparationView>;

/** The preparation with the ETag a later update or evidence removal quotes in If-Match. */
export const PreparationReply = z.object({ preparation: PreparationView, etag: z.string().nullable() });
export type PreparationReply = z.infer<typeof PreparationReply>;

/** An evidence upload's reply: the preparation as it is now, and the file just delivered. */
export const EvidenceUploadReply = PreparationReply.extend({ uploaded_file: EvidenceSourceView.nullable() });
export type EvidenceUploadReply = z.infer<typeof EvidenceUploadReply>;

/** A 412 (stale ETag or revision): the error plus the preparation as it is now, so the UI can explain and go on. */
export const PreparationConflictReply = BffErrorBody.extend({ current: PreparationReply });
export type PreparationConflictReply = z.infer<typeof PreparationConflictReply>;

/** PATCH body (spec 2.11): at least one of ai_mode and text_input, nothing else. */
export const PreparationUpdate = PreparationUpdateBody;
export type PreparationUpdate = z.infer<typeof PreparationUpdate>;

/** Start body (spec 2.11): the preparation revision the user saw, optionally a mode and an evidence selection. */
export const StartRequest = AutofillStartBody;
export type StartRequest = z.infer<typeof StartRequest>;

const RunFailureView = z.object({ code: z.string().nullable(), message: z.string().nullable() });

export const RunView = z.object({
  id: AutofillRunId,
  status: z.enum(RUN_STATUSES),
  progress: z.object({ step: z.string(), completed_units: z.number().int(), total_units: z.number().int() }),
  suggestion_count: z.number().int(),
  warning_count: z.number().int(),
  can_retry: z.boolean(),
  attempt_sequence: z.number().int().nullable(),
  failure: RunFailureView.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RunView = z.infer<typeof RunView>;

export const RunReply = z.object({ run: RunView });
export type RunReply = z.infer<typeof RunReply>;

/** The lines of the Autofill text a completed run could not use (no suggestion came from them). */
export const UnusedTextView = z.object({
  run_completed: z.boolean(),
  /** How many lines the text has (blank ones not counted). */
  line_count: z.number().int(),
  lines: z.array(z.string()),
  /** The text was changed after the run started: the lines are of the text as it is now. */
  text_changed_since: z.boolean(),
});
export type UnusedTextView = z.infer<typeof UnusedTextView>;

const Cursor = z.string().min(1).max(2000);

export const RunsQuery = z.strictObject({
  page_size: z.coerce.number().int().min(1).max(100).optional(),
  cursor: Cursor.optional(),
});
export type RunsQuery = z.infer<typeof RunsQuery>;

/** Runs come newest first; previous_cursor pages back towards the newest. */
export const RunsPageView = pageOf(RunView);
export type RunsPageView = z.infer<typeof RunsPageView>;

export const SuggestionStatus = z.enum(SUGGESTION_STATUSES);

export const SuggestionsQuery = z.strictObject({
  page_size: z.coerce.number().int().min(1).max(100).optional(),
  cursor: Cursor.optional(),
  status: SuggestionStatus.optional(),
});
export type SuggestionsQuery = z.infer<typeof SuggestionsQuery>;

const SuggestionSourceView = z.object({
  kind: z.string().nullable(),
  evidence_source_id: z.string().nullable(),
  /** Set for a file. */
  file_name: z.string().nullable(),
  /** The line the value was found on. */
  excerpt: z.string().nullable(),
  /** 0 to 1. */
  confidence: z.number().nullable(),
});

const SuggestionConcernView = z.object({ code: z.string().nullable(), message: z.string().nullable() });

export const SuggestionView = z.object({
  id: AutofillSuggestionId,
  /** The run it came from (its id only). */
  run_id: z.string().nullable(),
  status: SuggestionStatus,
  section_label: z.string().nullable(),
  question_label: z.string().nullable(),
  field_label: z.string().nullable(),
  display_order: z.number().int(),
  suggestion_kind: z.string(),
  /** The Portal's name of the target answer (the sandbox writes `block_key/schema_key/field_key`). */
  target_attribute: z.string(),
  /** The repeatable item the target belongs to, or null for a top-level answer. */
  target_scope: z.string().nullable(),
  current_value: z.unknown(),
  proposed_value: z.unknown(),
  source: SuggestionSourceView,
  concerns: z.array(SuggestionConcernView),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SuggestionView = z.infer<typeof SuggestionView>;

export const SuggestionsPageView = pageOf(SuggestionView);
export type SuggestionsPageView = z.infer<typeof SuggestionsPageView>;

/** Accepting writes the answer: the new answers_revision is what the form's next answer write quotes. */
export const SuggestionAcceptReply = z.object({ suggestion: SuggestionView, answers_revision: z.number().int() });
export type SuggestionAcceptReply = z.infer<typeof SuggestionAcceptReply>;

export const SuggestionDismissReply = z.object({ suggestion: SuggestionView });
export type SuggestionDismissReply = z.infer<typeof SuggestionDismissReply>;
