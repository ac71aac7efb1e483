import { PRODUCT_KINDS, type QuestionField } from '@/lib/portal';
import { COLLATERAL_KINDS, CREDIT_BANDS, CURRENCIES } from '../funding/types';
import {
  FUNDING_PURPOSES,
  FUNDING_TIMELINES,
  INDUSTRIES,
  assembleContract,
  multiFieldQuestion,
  question,
  visibleWhen,
  vs,
  when,
  type SectionDraft,
} from './funding-contract';
import type { ContractTemplate } from './types';

/*
 * The criteria contract of a funding project (DESIGN.md §6): what lenders screen on. Questions that share a
 * schema_key (and field_key) with the intake contract are prefilled from the business's intake answers when a
 * project is created: funding_amount, funding_purpose, purpose_details, funding_timeline,
 * preferred_term_months, date_established, industry, business_address (country, region), annual_revenue,
 * net_profit and can_offer_collateral. The rest (currency, product kinds, credit band, collateral types,
 * notes) only the criteria ask.
 */

export const CRITERIA_CONTRACT_VERSION = 'funding-criteria-2026.11';

const requestSection = (): SectionDraft => ({
  section_key: 'request',
  label: 'Funding request',
  entries: [
    question('currency', 'funding_amount', 'How much funding is needed?', vs.currency(50_000_000), 250_000, {
      required: true,
      help: 'Funders compare it with the amounts their products lend.',
    }),
    question('single_choice', 'funding_currency', 'Currency', vs.singleChoice(CURRENCIES), 'gbp', {
      required: true,
      help: 'GBP, EUR or USD: funders lend in one currency per product.',
    }),
    question('multi_choice', 'funding_purpose', 'What is the funding for?', vs.multiChoice(FUNDING_PURPOSES, 1), ['equipment'], {
      required: true,
      help: 'Choose all that apply.',
    }),
    question('long_text', 'purpose_details', 'Tell funders more about the purpose', vs.longText(), 'A digital X-ray suite.', {
      required: true,
      help: null,
      visibility: visibleWhen('all', when.includes('funding_purpose', 'other')),
    }),
    question(
      'multi_choice',
      'product_kinds',
      'Which kinds of funding would suit?',
      vs.multiChoice(PRODUCT_KINDS, 1),
      ['term_loan', 'equipment_finance'],
      { required: true, help: 'Only products of these kinds are matched.' },
    ),
    question('single_choice', 'funding_timeline', 'When are the funds needed?', vs.singleChoice(FUNDING_TIMELINES), 'within_one_month', {
      required: true,
      help: 'Funders who take longer to pay out fit less well.',
    }),
    question('integer', 'preferred_term_months', 'Preferred repayment term (months)', vs.integer(1, 360), 60, {
      help: 'Leave blank if any term would do.',
    }),
    question('long_text', 'notes_for_funders', 'Anything else funders should know', vs.longText(), 'Seasonal trade: most sales fall between May and September.', {
      help: null,
    }),
  ],
});

const countryField: QuestionField = {
  field_key: 'country',
  label: 'Country',
  help_text: 'Two-letter ISO 3166 country code, for example GB or US.',
  is_required: true,
  value_schema: vs.text({ minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$' }),
  example: 'GB',
};
const regionField: QuestionField = {
  field_key: 'region',
  label: 'County, state or region',
  help_text: 'Some funders do not lend in every region of a country.',
  is_required: false,
  value_schema: vs.text({ maxLength: 100 }),
  example: 'West Yorkshire',
};

const businessSection = (): SectionDraft => ({
  section_key: 'business',
  label: 'The business',
  entries: [
    question('date', 'date_established', 'Date the business started trading', vs.date(), '2016-04-01', {
      required: true,
      help: 'Funders count months of trading from this date.',
    }),
    question('single_choice', 'industry', 'Industry', vs.singleChoice(INDUSTRIES), 'manufacturing', {
      required: true,
      help: 'The closest match to what the business mainly does.',
    }),
    multiFieldQuestion('address', 'business_address', 'Where the business trades', [countryField, regionField], {
      required: true,
      help: null,
    }),
  ],
});

const financialsSection = (): SectionDraft => ({
  section_key: 'financials',
  label: 'Financial standing',
  entries: [
    question('currency', 'annual_revenue', 'Annual revenue (last financial year)', vs.currency(), 1_850_000, {
      required: true,
      help: null,
    }),
    question('number', 'net_profit', 'Net profit (last financial year)', vs.number(), 142_500, {
      help: 'A negative number for a loss. Some funders lend only to profitable businesses.',
    }),
    question('single_choice', 'credit_band', 'Business credit rating', vs.singleChoice(CREDIT_BANDS), 'good', {
      required: true,
      help: 'Excellent, good, fair or poor, as the credit reference agency rates the business.',
    }),
  ],
});

const securitySection = (): SectionDraft => ({
  section_key: 'security',
  label: 'Security',
  entries: [
    question('yes_no', 'can_offer_collateral', 'Can the business offer security?', vs.yesNo(), true, {
      required: true,
      help: 'For example property, equipment or a personal guarantee.',
    }),
    question('multi_choice', 'collateral_types', 'What security can it offer?', vs.multiChoice(COLLATERAL_KINDS, 1), ['equipment'], {
      required: true,
      help: 'Choose all that apply.',
      visibility: visibleWhen('all', when.equals('can_offer_collateral', true)),
    }),
  ],
});

/** Built fresh on every call: the store owns and may mutate what it is given. */
export function buildCriteriaContract(): ContractTemplate {
  return assembleContract(
    {
      contract_version: CRITERIA_CONTRACT_VERSION,
      application_name: 'Funding criteria',
      description: 'What funders screen on: the request, the business, its financial standing and the security it can offer.',
      instructions:
        'Answers shared with the intake application are copied from it when the project is created; check them and complete the rest, then find funders.',
    },
    [requestSection(), businessSection(), financialsSection(), securitySection()],
  );
}
