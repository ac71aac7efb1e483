import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePdf } from '../../autofill/engine/pdf-writer';

/**
 * Seed evidence for Autofill, about the demo Portal's Harbour Street Café (ciappl_harbourcafe, an empty
 * application): a plain-text business summary, a CSV of financial figures and a PDF of filed accounts. The PDF
 * is generated here (FlateDecode content stream, Tj text) so it stays deterministic and reviewable as text.
 * The engine's proposals for these three files are asserted value by value in tests/unit/autofill-engine.test.ts.
 */

export interface SeedDocument {
  name: string;
  contentType: string;
  bytes: Buffer;
}

/** The text of the accounts PDF, one entry a line, two pages. */
export const ACCOUNTS_PDF_PAGES: string[][] = [
  [
    'Harbour Street Hospitality Ltd',
    'Directors’ report and unaudited financial statements for the year ended 31 March 2025',
    'Registered number: 11842093',
    'Registered office: 27 Harbour Street, Whitby, YO21 3PU, United Kingdom',
    'Director: Luca Fontana',
    'Date of incorporation: 12 March 2019',
  ],
  [
    'Profit and loss account',
    'Turnover: £612,400',
    'Profit for the financial year: £48,250',
    'Average number of employees during the year: 12',
    'Approved by the board on 14 July 2025 and signed on its behalf by Luca Fontana, Director.',
  ],
];

export const ACCOUNTS_PDF_NAME = 'filed-accounts-2025.pdf';

export function accountsPdf(): Buffer {
  return writePdf(ACCOUNTS_PDF_PAGES, { title: 'Harbour Street Hospitality Ltd – accounts 2025' });
}

const read = (name: string) => readFileSync(join(__dirname, name));

/** The three seed documents, in the order a person would upload them. */
export function seedDocuments(): SeedDocument[] {
  return [
    { name: 'business-summary.txt', contentType: 'text/plain', bytes: read('business-summary.txt') },
    { name: 'financial-summary.csv', contentType: 'text/csv', bytes: read('financial-summary.csv') },
    { name: ACCOUNTS_PDF_NAME, contentType: 'application/pdf', bytes: accountsPdf() },
  ];
}
