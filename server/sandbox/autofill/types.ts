import type { AnswerValue } from '@/lib/portal';

/** Autofill's records in the sandbox's state (plain JSON, saved with the rest of the data file). */

export type AiModeValue = 'fast' | 'thinking';
export type EvidenceStatus = 'pending' | 'running' | 'success' | 'failed';

export interface EvidenceFileRec {
  /** afev_… */
  id: string;
  seq: number;
  /** The upload credential the bytes came through; a repeated PUT to it replaces this file. */
  upload_id: string;
  name: string;
  content_type: string;
  size: number;
  status: EvidenceStatus;
  failure_code: string | null;
  failure_reason: string | null;
  /** Moves with each replacement, so reading scheduled for earlier bytes is ignored. */
  generation: number;
  content_base64: string;
  /** The text read from the file, once status is success. */
  text: string | null;
  created_at: string;
  updated_at: string;
}

export interface PreparationRec {
  application_id: string;
  revision: number;
  text_input: string | null;
  ai_mode: AiModeValue;
  text_updated_at: string;
  /** In upload order. */
  files: EvidenceFileRec[];
  /** What the preparation showed at `revision` (the revision moves when this changes). */
  signature: string;
  created_at: string;
  updated_at: string;
}

export interface RunEvidence {
  id: string;
  kind: 'text' | 'file';
  name: string | null;
  text: string;
}

type RunStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface RunRec {
  /** afrun_… */
  id: string;
  seq: number;
  application_id: string;
  status: RunStatus;
  step: string;
  completed_units: number;
  total_units: number;
  ai_mode: AiModeValue;
  /** The evidence sources the run reads, in order. */
  source_ids: string[];
  attempt_sequence: number;
  failure: { code: string; message: string } | null;
  suggestion_count: number;
  warning_count: number;
  /** Evidence read so far by the current attempt; cleared when it ends. */
  evidence: RunEvidence[];
  /** Selected sources the current attempt could not read. */
  skipped: number;
  /** Moves on every change (the run's ETag). */
  version: number;
  created_at: string;
  updated_at: string;
}

type StoredSuggestionStatus = 'pending' | 'accepted' | 'dismissed';

export interface SuggestionRec {
  /** afsug_… */
  id: string;
  seq: number;
  run_id: string;
  status: StoredSuggestionStatus;
  block_key: string;
  schema_key: string;
  field_key: string;
  item_id: string | null;
  section_label: string;
  question_label: string;
  field_label: string;
  display_order: number;
  /** The target's value when the run made the suggestion: a different value now makes it stale. */
  current_value: AnswerValue;
  proposed_value: AnswerValue;
  source: { kind: 'text' | 'file'; evidence_source_id: string; file_name?: string; excerpt: string; confidence: number };
  concerns: Array<{ code: string; message: string }>;
  created_at: string;
  updated_at: string;
}

interface EvidenceUploadRec {
  /** upl_… */
  id: string;
  application_id: string;
  token: string;
  expires_at: string;
  /** The evidence file the credential delivered (null until its first PUT). */
  evidence_id: string | null;
}

export interface ApplicationAutofill {
  preparation: PreparationRec;
  runs: Record<string, RunRec>;
  suggestions: Record<string, SuggestionRec>;
}

export interface AutofillState {
  /** By application id. */
  applications: Record<string, ApplicationAutofill>;
  /** Evidence upload credentials by upload id (a transfer URL names only its upload). */
  uploads: Record<string, EvidenceUploadRec>;
}
