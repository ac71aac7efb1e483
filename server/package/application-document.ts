import 'server-only';
import { answersCopy, type CopySection } from '@/lib/forms/answers-copy';
import type { AnswerFile } from '@/lib/portal';
import type { Collected, DocumentRead } from './collect';

/**
 * The funder's PDF as data (DESIGN.md §10): a cover, the visible sections in contract order with required
 * answers still missing marked, and the documents with their SHA-256. Rendering is application-pdf's job.
 */

export interface DocumentEntry {
  readonly filename: string;
  /** What it is: the question it answers (and the field, for a question of several). */
  readonly question: string;
  readonly contentType: string;
  readonly size: number;
  readonly uploadedAt: string;
  readonly read: DocumentRead;
}

export interface PackageDocument {
  readonly title: string;
  readonly businessName: string;
  readonly cover: readonly { label: string; value: string }[];
  readonly sections: readonly CopySection[];
  readonly documents: readonly DocumentEntry[];
}

const UTC = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
// A calendar date is the same day everywhere (UTC), its month spelled out so a funder never reads 04/01 the wrong way round.
const CALENDAR = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const calendarDate = (date: string) => {
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(t) ? date : CALENDAR.format(t);
};
export const readableTime = (iso: string | Date | null) => (iso === null ? '—' : `${UTC.format(new Date(iso))} UTC`);

export function readableSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]} (${bytes.toLocaleString('en-GB')} bytes)`;
}

/** The business's name as the funder reads it (an application without one is named by its id). */
export const businessNameOf = (collected: Collected) => collected.snapshot.application.business?.name?.trim() || collected.snapshot.application.id;

/** What each file answers, as the form labels it. */
function questionOf(collected: Collected, file: AnswerFile): string {
  const question = collected.snapshot.contract.questions.find((q) => q.schema_key === file.schema_key);
  if (!question) return file.schema_key;
  const field = question.fields.length > 1 ? question.fields.find((f) => f.field_key === file.field_key) : undefined;
  return field ? `${question.label} – ${field.label}` : question.label;
}

export function packageDocument(
  collected: Collected,
  reads: ReadonlyMap<string, DocumentRead>,
  context: { preparedBy: string; generatedAt: Date },
): PackageDocument {
  const { application, contract, answers, items, files } = collected.snapshot;
  const missing = (): DocumentRead => ({ sha256: null, problem: 'Not read.' });
  return {
    title: contract.application_name || 'Application',
    businessName: businessNameOf(collected),
    cover: [
      { label: 'Business', value: businessNameOf(collected) },
      { label: 'Status', value: application.status?.label ?? (application.submitted_at ? 'Submitted' : 'Not submitted') },
      { label: 'Submitted at', value: application.submitted_at ? readableTime(application.submitted_at) : 'Not submitted yet' },
      { label: 'Prepared by', value: context.preparedBy },
      { label: 'Answers revision', value: String(answers.answers_revision) },
      { label: 'Generated at', value: readableTime(context.generatedAt) },
      { label: 'Application', value: application.id },
      { label: 'Form version', value: contract.contract_version },
    ],
    sections: answersCopy({ contract, answers: answers.items, items, files, markMissing: true, calendarDate }),
    documents: collected.files.map((file) => ({
      filename: file.filename,
      question: questionOf(collected, file),
      contentType: file.content_type,
      size: file.size,
      uploadedAt: file.created_at,
      read: reads.get(file.id) ?? missing(),
    })),
  };
}
