import 'server-only';
import type { EvidenceSourceView, PreparationView, RunView, SuggestionView } from '@/lib/bff/autofill';
import type { AutofillPreparation, AutofillRun, AutofillSuggestion, EvidenceSource } from '@/lib/portal';

/*
 * Upstream Autofill shapes turned into what the browser gets. Fields are copied one by one, never spread:
 * the open objects (evidence sources, failure, source, concerns, the suggestion's run) may carry URLs or
 * fields a Portal adds later, and none of that may reach the browser.
 */

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function evidenceSourceView(e: EvidenceSource): EvidenceSourceView {
  return {
    id: text(e.id),
    kind: text(e.kind),
    name: text(e.name),
    status: e.status ?? null,
    failure_code: text(e.failure_code),
    failure_reason: text(e.failure_reason),
    selected: typeof e.selected === 'boolean' ? e.selected : null,
    content_type: text(e.content_type),
    size: Number.isSafeInteger(e.size) ? e.size! : null,
    created_at: text(e.created_at),
    updated_at: text(e.updated_at),
  };
}

export function preparationView(p: AutofillPreparation): PreparationView {
  return {
    revision: p.revision,
    text_input: p.text_input,
    ai_mode: p.ai_mode,
    file_count: p.file_count,
    files: p.files.map((f) => ({ name: f.name, status: f.status })),
    evidence_sources: p.evidence_sources.map(evidenceSourceView),
    selected_evidence_source_count: p.selected_evidence_source_count,
    can_start: p.can_start,
  };
}

export function runView(r: AutofillRun): RunView {
  return {
    id: r.id,
    status: r.status,
    progress: { step: r.progress.step, completed_units: r.progress.completed_units, total_units: r.progress.total_units },
    suggestion_count: r.suggestion_count,
    warning_count: r.warning_count,
    can_retry: r.can_retry,
    attempt_sequence: r.attempt_sequence,
    failure: r.failure ? { code: text(r.failure.code), message: text(r.failure.message) } : null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function suggestionView(s: AutofillSuggestion): SuggestionView {
  return {
    id: s.id,
    run_id: text(s.run.id),
    status: s.status,
    section_label: s.section_label,
    question_label: s.question_label,
    field_label: s.field_label,
    display_order: s.display_order,
    suggestion_kind: s.suggestion_kind,
    target_attribute: s.target_attribute,
    target_scope: s.target_scope,
    current_value: s.current_value,
    proposed_value: s.proposed_value,
    source: {
      kind: text(s.source.kind),
      evidence_source_id: text(s.source.evidence_source_id),
      file_name: text(s.source.file_name),
      excerpt: text(s.source.excerpt),
      confidence: num(s.source.confidence),
    },
    concerns: s.concerns.map((c) => ({ code: text(c.code), message: text(c.message) })),
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}
