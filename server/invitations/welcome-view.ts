import 'server-only';
import type { ClientWelcomeView } from '@/lib/bff/client-welcome';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';

interface Who {
  clientName: string | null;
  invitedBy: string | null;
  organisation: string | null;
}

/** The welcome page's view of the form snapshot: who asked, what is needed, which documents, how far along. */
export function clientWelcomeView(snapshot: Pick<FormSnapshotView, 'application' | 'contract' | 'files'>, who: Who): ClientWelcomeView {
  const { application, contract, files } = snapshot;
  const attached = new Set(files.map((f) => `${f.block_key}/${f.schema_key}`));
  const progress = application.progress;
  return {
    applicationId: application.id,
    ...who,
    businessName: application.business?.name ?? null,
    applicationName: contract.application_name,
    description: contract.description,
    instructions: contract.instructions,
    sectionCount: contract.sections.length,
    documents: contract.questions
      .filter((q) => q.answer_shape === 'file')
      .sort((a, b) => a.order - b.order)
      .map((q) => ({
        key: `${q.block_key}/${q.schema_key}`,
        label: q.label,
        helpText: q.help_text,
        required: q.is_required,
        // Asked for only depending on other answers (or inside a repeatable group): "if it applies".
        conditional: q.visibility.rule !== 'always' || q.parent_block_key !== null,
        provided: attached.has(`${q.block_key}/${q.schema_key}`),
      })),
    progress: progress ? { answered: progress.completed_items, total: progress.total_items, percent: progress.percent } : null,
    submittedAt: application.submitted_at,
  };
}
