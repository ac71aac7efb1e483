import 'server-only';
import type { UnusedTextView } from '@/lib/bff/autofill';
import type { IntakeLinks } from '@/server/applications/intake-application';
import { readPreparation } from './preparation';
import { listSuggestions, readRun } from './runs';
import { unusedLines } from './unused-lines';

/**
 * Which lines of the Autofill text a completed run could not use (unused-lines.ts): the text as the
 * preparation holds it, against the excerpts of the run's suggestions read from the text. When the text
 * was changed after the run started (its evidence source says when), the lines are of the new text, and
 * the view says so.
 */
export async function readUnusedText(applicationId: string, links: IntakeLinks, runId: string): Promise<UnusedTextView> {
  const [run, preparation] = await Promise.all([readRun(applicationId, links, runId), readPreparation(applicationId, links)]);
  const excerpts: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listSuggestions(applicationId, links, runId, { page_size: 100, ...(cursor ? { cursor } : {}) });
    for (const s of page.data.items) {
      const source = s.source as { kind?: unknown; excerpt?: unknown };
      if (source.kind === 'text' && typeof source.excerpt === 'string') excerpts.push(source.excerpt);
    }
    cursor = page.data.next_cursor ?? undefined;
  } while (cursor);
  const text = preparation.data.text_input ?? '';
  const textSource = (preparation.data.evidence_sources as Array<{ kind?: unknown; updated_at?: unknown }>).find((e) => e.kind === 'text');
  const changedAt = typeof textSource?.updated_at === 'string' ? Date.parse(textSource.updated_at) : NaN;
  return {
    run_completed: run.data.status === 'completed',
    line_count: text.split(/\r?\n/).filter((l) => l.trim() !== '').length,
    lines: run.data.status === 'completed' ? unusedLines(text, excerpts) : [],
    text_changed_since: !Number.isNaN(changedAt) && changedAt > Date.parse(run.data.created_at),
  };
}
