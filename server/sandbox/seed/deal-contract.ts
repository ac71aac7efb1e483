import { assembleContract, fileQuestion, group, question, visibleWhen, vs, when, type SectionDraft } from './funding-contract';
import type { ContractTemplate } from './types';

/*
 * The deal-application contract: what a lender (a recipient, or the Portal itself) asks for one deal.
 * Written with the funding contract's builders, so it follows the same conventions (keys, shapes, operations).
 */

export const DEAL_CONTRACT_VERSION = 'lender-application-2026.11';

export const FACILITY_TYPES = [
  'term_loan',
  'revolving_credit',
  'asset_finance',
  'invoice_finance',
  'commercial_mortgage',
  'merchant_cash_advance',
] as const;
export const REPAYMENT_FREQUENCIES = ['monthly', 'quarterly', 'bullet'] as const;

const facilitySection = (): SectionDraft => ({
  section_key: 'facility',
  label: 'Facility requested',
  entries: [
    question('single_choice', 'facility_type', 'Type of facility', vs.singleChoice(FACILITY_TYPES), 'asset_finance', {
      required: true,
      help: 'Term loan, revolving credit, asset finance, invoice finance, commercial mortgage or merchant cash advance.',
    }),
    question('currency', 'requested_amount', 'Amount requested', vs.currency(50_000_000), 180_000, {
      required: true,
      help: 'In the currency of the borrower’s main business account.',
    }),
    question('integer', 'term_months', 'Term (months)', vs.integer(1, 360), 48, { required: true, help: null }),
    question(
      'single_choice',
      'repayment_frequency',
      'Repayment frequency',
      vs.singleChoice(REPAYMENT_FREQUENCIES),
      'monthly',
      { help: 'Monthly, quarterly, or a single bullet repayment at the end of the term.' },
    ),
    question(
      'long_text',
      'purpose_summary',
      'What will the facility be used for?',
      vs.longText(),
      'Purchase of two CNC machining centres to double capacity for an existing rail contract.',
      { required: true, help: 'A short summary the lender’s credit team can read on its own.' },
    ),
    question('yes_no', 'security_offered', 'Is security offered?', vs.yesNo(), true, {
      required: true,
      help: 'Property, equipment, a debenture or personal guarantees.',
    }),
    question(
      'long_text',
      'security_description',
      'Describe the security',
      vs.longText(),
      'First charge over the financed machines; personal guarantee from the majority shareholder.',
      { required: true, help: null, visibility: visibleWhen('all', when.equals('security_offered', true)) },
    ),
  ],
});

const borrowerSection = (): SectionDraft => ({
  section_key: 'borrower',
  label: 'Borrower profile',
  entries: [
    question('text', 'borrower_legal_name', 'Borrower’s legal name', vs.text({ minLength: 2 }), 'Meridian Engineering Ltd', {
      required: true,
      help: null,
    }),
    question(
      'text',
      'borrower_registration_number',
      'Company registration number',
      vs.text({ minLength: 4, maxLength: 20, pattern: '^[A-Za-z0-9-]{4,20}$' }),
      '09876543',
      { help: 'Leave blank for sole traders and partnerships.' },
    ),
    question('date', 'trading_since', 'Trading since', vs.date(), '2016-04-01', { required: true, help: null }),
    question('currency', 'annual_turnover', 'Annual turnover (last financial year)', vs.currency(), 1_850_000, {
      required: true,
      help: null,
    }),
    question('number', 'ebitda', 'EBITDA (last financial year)', vs.number(), 265_000, {
      help: 'Enter a negative number for a loss.',
    }),
    question('currency', 'existing_debt_total', 'Total existing borrowing', vs.currency(), 48_000, {
      help: 'Loans, overdrafts and asset finance outstanding today.',
    }),
    question('email', 'borrower_contact_email', 'Borrower contact email', vs.email(), 'alex.morgan@meridian-engineering.example', {
      required: true,
      help: 'The lender’s questions about this application go here.',
    }),
  ],
});

const directorsSection = (): SectionDraft => ({
  section_key: 'directors',
  label: 'Directors and guarantors',
  entries: [
    group('directors', 1, 6, [
      question('text', 'director_full_name', 'Full name', vs.text({ minLength: 2 }), 'Alex Morgan', {
        required: true,
        help: null,
      }),
      question('email', 'director_email', 'Email address', vs.email(), 'alex.morgan@meridian-engineering.example', {
        required: true,
        help: null,
      }),
      question('date', 'director_dob', 'Date of birth', vs.date(), '1979-08-14', { required: true, help: null }),
      question('percent', 'director_ownership_pct', 'Shareholding', vs.percent(), 60, {
        required: true,
        help: 'Percentage of the business this director owns.',
      }),
      question('yes_no', 'director_is_guarantor', 'Will this director give a personal guarantee?', vs.yesNo(), true, {
        required: true,
        help: null,
      }),
    ]),
  ],
});

const documentsSection = (): SectionDraft => ({
  section_key: 'documents',
  label: 'Documents and consent',
  entries: [
    fileQuestion('management_accounts', 'Latest management accounts', 5, {
      help: 'Year-to-date profit and loss and balance sheet, as PDFs or spreadsheets.',
    }),
    question('long_text', 'notes_for_lender', 'Anything else the lender should know', vs.longText(), 'Order book covers 14 months of capacity.', {
      help: null,
    }),
    question('yes_no', 'consent_to_share', 'The borrower agrees to share this application with the lender', vs.mustBeYes(), true, {
      required: true,
      help: 'Required before the application can be submitted.',
    }),
    question('text', 'authorised_signatory', 'Name of the authorised signatory', vs.text({ minLength: 2 }), 'Alex Morgan', {
      required: true,
      help: null,
    }),
    question('date', 'signed_on', 'Date signed', vs.date(), '2026-01-20', { required: true, help: null }),
  ],
});

/** Built fresh on every call: the store owns and may mutate what it is given. */
export function buildDealContract(): ContractTemplate {
  return assembleContract(
    {
      contract_version: DEAL_CONTRACT_VERSION,
      application_name: 'Lender application',
      description: 'The application a lender needs to assess one deal: the facility, the borrower, its directors and supporting documents.',
      instructions:
        'Answers save as you go. Add every director, and each person who will give a personal guarantee. Submit once the borrower has agreed to share the application.',
    },
    [facilitySection(), borrowerSection(), directorsSection(), documentsSection()],
  );
}
