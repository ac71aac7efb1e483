import { expect } from 'vitest';

/** After the demo's seed documents were uploaded and read: all three read, and with the text input a run may start. */
export function expectSeedDocumentsRead(prep: { files: unknown }) {
  expect(prep.files).toEqual([
    { name: 'business-summary.txt', status: 'success' },
    { name: 'financial-summary.csv', status: 'success' },
    { name: 'filed-accounts-2025.pdf', status: 'success' },
  ]);
  expect(prep).toMatchObject({ file_count: 3, selected_evidence_source_count: 4, can_start: true });
}

/** What the seed documents propose for the legal name: the first question, read from the business summary. */
export const SEED_LEGAL_NAME_SUGGESTION = {
  section_label: 'Business details',
  question_label: 'Legal business name',
  display_order: 1,
  proposed_value: 'Harbour Street Hospitality Ltd',
  source: { kind: 'file', file_name: 'business-summary.txt', excerpt: 'Legal name: Harbour Street Hospitality Ltd', confidence: 0.95 },
  concerns: [],
};
