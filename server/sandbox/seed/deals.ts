import type { AnswerValue } from '@/lib/portal';
import { DEAL_CONTRACT_VERSION, type FACILITY_TYPES, type REPAYMENT_FREQUENCIES } from './deal-contract';
import type { SeedAnswer, SeedDeal, SeedDealPipeline, SeedDeals, SeedItem, SeedRecipient } from './types';

/*
 * Deals of the demo Portal: one pipeline, the lenders deals are made for, and a few deals of the demo
 * businesses at different stages (one for the Portal itself, one sample), each with its lender application.
 */

const DEAL_PIPELINE_ID = 'dpipe_funding';
const DEAL_STAGE = {
  draft: 'dstg_draft',
  submitted: 'dstg_submittedtorecipient',
  inReview: 'dstg_inreview',
  offerMade: 'dstg_offermade',
  won: 'dstg_won',
  lost: 'dstg_lost',
} as const;

const dealPipelines = (): SeedDealPipeline[] => [
  {
    id: DEAL_PIPELINE_ID,
    name: 'Funding deals',
    stages: [
      { id: DEAL_STAGE.draft, name: 'Draft' },
      { id: DEAL_STAGE.submitted, name: 'Submitted to recipient' },
      { id: DEAL_STAGE.inReview, name: 'In review' },
      { id: DEAL_STAGE.offerMade, name: 'Offer made' },
      { id: DEAL_STAGE.won, name: 'Won', outcome: 'won' },
      { id: DEAL_STAGE.lost, name: 'Lost', outcome: 'lost' },
    ],
  },
];

export const RECIPIENT = {
  harbour: 'rcpt_harbourbank',
  summit: 'rcpt_summitcredit',
  ironbridge: 'rcpt_ironbridge',
  evergreen: 'rcpt_evergreen',
  calder: 'rcpt_calderinvoice',
} as const;

const recipients = (): SeedRecipient[] => [
  { id: RECIPIENT.harbour, name: 'Harbour Bank Business Finance' },
  { id: RECIPIENT.summit, name: 'Summit Credit Partners' },
  { id: RECIPIENT.ironbridge, name: 'Ironbridge Asset Finance' },
  { id: RECIPIENT.evergreen, name: 'Evergreen Community Lending' },
  { id: RECIPIENT.calder, name: 'Calder Invoice Finance' },
];

/* Answers of a lender application, written from a profile of the deal so partial and complete ones agree. */

interface DirectorProfile {
  name: string;
  email: string;
  dob: string;
  pct: number;
  guarantor: boolean;
}

interface DealProfile {
  facilityType: (typeof FACILITY_TYPES)[number];
  amount: number;
  termMonths: number;
  frequency?: (typeof REPAYMENT_FREQUENCIES)[number];
  purpose: string;
  /** null: no security offered. */
  security: string | null;
  legalName: string;
  registrationNumber?: string;
  tradingSince: string;
  turnover: number;
  ebitda?: number;
  existingDebt?: number;
  contactEmail: string;
  directors: DirectorProfile[];
  notes?: string;
  signatory: string;
  signedOn: string;
}

const SECTIONS = ['facility', 'borrower', 'directors', 'documents'] as const;
type Section = (typeof SECTIONS)[number];

const answer = (key: string, value: AnswerValue | undefined): SeedAnswer[] =>
  value === undefined ? [] : [{ block_key: key, schema_key: key, field_key: 'value', value }];

const SECTION_ANSWERS: Record<Section, (p: DealProfile) => SeedAnswer[]> = {
  facility: (p) => [
    ...answer('facility_type', p.facilityType),
    ...answer('requested_amount', p.amount),
    ...answer('term_months', p.termMonths),
    ...answer('repayment_frequency', p.frequency),
    ...answer('purpose_summary', p.purpose),
    ...answer('security_offered', p.security !== null),
    ...answer('security_description', p.security ?? undefined),
  ],
  borrower: (p) => [
    ...answer('borrower_legal_name', p.legalName),
    ...answer('borrower_registration_number', p.registrationNumber),
    ...answer('trading_since', p.tradingSince),
    ...answer('annual_turnover', p.turnover),
    ...answer('ebitda', p.ebitda),
    ...answer('existing_debt_total', p.existingDebt),
    ...answer('borrower_contact_email', p.contactEmail),
  ],
  directors: () => [],
  documents: (p) => [
    ...answer('notes_for_lender', p.notes),
    ...answer('consent_to_share', true),
    ...answer('authorised_signatory', p.signatory),
    ...answer('signed_on', p.signedOn),
  ],
};

const directorItem = (d: DirectorProfile): SeedItem => ({
  block_key: 'directors',
  answers: [
    { schema_key: 'director_full_name', field_key: 'value', value: d.name },
    { schema_key: 'director_email', field_key: 'value', value: d.email },
    { schema_key: 'director_dob', field_key: 'value', value: d.dob },
    { schema_key: 'director_ownership_pct', field_key: 'value', value: d.pct },
    { schema_key: 'director_is_guarantor', field_key: 'value', value: d.guarantor },
  ],
});

/** Answers of every section up to and including `through`. */
function dealSeed(p: DealProfile, through: Section): Pick<SeedDeal, 'answers' | 'items'> {
  const sections = SECTIONS.slice(0, SECTIONS.indexOf(through) + 1);
  return {
    answers: sections.flatMap((s) => SECTION_ANSWERS[s](p)),
    items: sections.includes('directors') ? p.directors.map(directorItem) : [],
  };
}

const MERIDIAN: DealProfile = {
  facilityType: 'asset_finance',
  amount: 180_000,
  termMonths: 48,
  frequency: 'monthly',
  purpose: 'Purchase of two CNC machining centres to double capacity for an existing rail contract.',
  security: 'First charge over the financed machines; personal guarantee from Alex Morgan up to £100,000.',
  legalName: 'Meridian Engineering Ltd',
  registrationNumber: '09876543',
  tradingSince: '2016-04-01',
  turnover: 1_850_000,
  ebitda: 265_000,
  existingDebt: 48_000,
  contactEmail: 'alex.morgan@meridian-engineering.example',
  directors: [
    { name: 'Alex Morgan', email: 'alex.morgan@meridian-engineering.example', dob: '1979-08-14', pct: 60, guarantor: true },
    { name: 'Sam Patel', email: 'sam.patel@meridian-engineering.example', dob: '1983-02-27', pct: 40, guarantor: false },
  ],
  notes: 'Order book covers 14 months of capacity; the machines are quoted by the manufacturer’s UK agent.',
  signatory: 'Alex Morgan',
  signedOn: '2026-01-20',
};

const OAKRIDGE: DealProfile = {
  facilityType: 'term_loan',
  amount: 95_000,
  termMonths: 60,
  frequency: 'monthly',
  purpose: 'Refit of the dispensary and a new consultation room.',
  security: null,
  legalName: 'Oakridge Pharmacy LLC',
  registrationNumber: 'LLC-2011-0452',
  tradingSince: '2011-09-15',
  turnover: 2_400_000,
  ebitda: 310_000,
  contactEmail: 'dana@oakridge-pharmacy.example',
  directors: [{ name: 'Dana Reyes', email: 'dana@oakridge-pharmacy.example', dob: '1975-11-02', pct: 100, guarantor: true }],
  signatory: 'Dana Reyes',
  signedOn: '2026-02-03',
};

const PINECREST_BREWHOUSE: DealProfile = {
  facilityType: 'commercial_mortgage',
  amount: 1_200_000,
  termMonths: 240,
  frequency: 'monthly',
  purpose: 'Purchase of the leased brewhouse and the adjoining warehouse.',
  security: 'First legal charge over the brewhouse and warehouse.',
  legalName: 'Pinecrest Brewing Co.',
  registrationNumber: 'OR-1203344',
  tradingSince: '2014-06-01',
  turnover: 3_100_000,
  ebitda: 540_000,
  existingDebt: 220_000,
  contactEmail: 'jordan@pinecrest-brewing.example',
  directors: [
    { name: 'Jordan Lee', email: 'jordan@pinecrest-brewing.example', dob: '1981-03-09', pct: 70, guarantor: true },
    { name: 'Casey Nguyen', email: 'casey@pinecrest-brewing.example', dob: '1986-12-21', pct: 30, guarantor: false },
  ],
  signatory: 'Jordan Lee',
  signedOn: '2025-11-04',
};

const PINECREST_FLEET: DealProfile = {
  ...PINECREST_BREWHOUSE,
  facilityType: 'asset_finance',
  amount: 160_000,
  termMonths: 36,
  purpose: 'Four refrigerated delivery vans.',
  security: 'The financed vans.',
  notes: 'Declined by the lender: fleet finance is outside its current appetite.',
  signedOn: '2025-11-20',
};

const BLUEWAVE: DealProfile = {
  facilityType: 'revolving_credit',
  amount: 75_000,
  termMonths: 24,
  frequency: 'quarterly',
  purpose: 'Working capital for a second studio opening in the spring.',
  security: null,
  legalName: 'Bluewave Fitness Partnership',
  tradingSince: '2018-01-08',
  turnover: 640_000,
  ebitda: 92_000,
  contactEmail: 'morgan@bluewave.example',
  directors: [
    { name: 'Morgan Blake', email: 'morgan@bluewave.example', dob: '1988-05-30', pct: 50, guarantor: true },
    { name: 'Riley Evans', email: 'riley@bluewave.example', dob: '1990-10-12', pct: 50, guarantor: true },
  ],
  signatory: 'Morgan Blake',
  signedOn: '2026-01-28',
};

const SUNRISE: DealProfile = {
  facilityType: 'asset_finance',
  amount: 28_000,
  termMonths: 36,
  purpose: 'A second deck oven for the wholesale bread round.',
  security: 'The oven.',
  legalName: 'Sunrise Bakery',
  tradingSince: '2019-03-01',
  turnover: 310_000,
  contactEmail: 'jamie@sunrise-bakery.example',
  directors: [{ name: 'Jamie Rowe', email: 'jamie@sunrise-bakery.example', dob: '1985-07-19', pct: 100, guarantor: true }],
  signatory: 'Jamie Rowe',
  signedOn: '2026-02-10',
};

interface DealInput {
  slug: string;
  name: string;
  business: string; // biz_ slug
  recipient: string | null;
  stage: string;
  minutesAgo: number;
  seed?: Pick<SeedDeal, 'answers' | 'items'>;
  submitted?: boolean;
  sample?: boolean;
}

const deal = (d: DealInput): SeedDeal => ({
  id: `deal_${d.slug}`,
  name: d.name,
  business_id: `biz_${d.business}`,
  recipient_id: d.recipient,
  pipeline_id: DEAL_PIPELINE_ID,
  stage_id: d.stage,
  application_id: `dapp_${d.slug}`,
  contract_version: DEAL_CONTRACT_VERSION,
  ...(d.sample ? { is_sample: true } : {}),
  created_minutes_ago: d.minutesAgo,
  answers: d.seed?.answers ?? [],
  items: d.seed?.items ?? [],
  submitted: d.submitted ?? false,
});

const DAY = 24 * 60;

function deals(): SeedDeal[] {
  return [
    deal({
      slug: 'sunriseoven',
      name: 'Sunrise Bakery – deck oven finance (sample)',
      business: 'sunrisebakery',
      recipient: RECIPIENT.harbour,
      stage: DEAL_STAGE.draft,
      minutesAgo: 29 * DAY,
      seed: dealSeed(SUNRISE, 'facility'),
      sample: true,
    }),
    deal({
      slug: 'pinecrestbrewhouse',
      name: 'Pinecrest Brewing – brewhouse purchase',
      business: 'pinecrest',
      recipient: RECIPIENT.summit,
      stage: DEAL_STAGE.won,
      minutesAgo: 55 * DAY,
      seed: dealSeed(PINECREST_BREWHOUSE, 'documents'),
      submitted: true,
    }),
    deal({
      slug: 'pinecrestfleet',
      name: 'Pinecrest Brewing – delivery fleet',
      business: 'pinecrest',
      recipient: RECIPIENT.ironbridge,
      stage: DEAL_STAGE.lost,
      minutesAgo: 50 * DAY,
      seed: dealSeed(PINECREST_FLEET, 'documents'),
      submitted: true,
    }),
    deal({
      slug: 'bluewaverevolver',
      name: 'Bluewave Fitness – revolving credit',
      business: 'bluewave',
      recipient: RECIPIENT.calder,
      stage: DEAL_STAGE.offerMade,
      minutesAgo: 25 * DAY,
      seed: dealSeed(BLUEWAVE, 'documents'),
      submitted: true,
    }),
    deal({
      slug: 'oakridgerefit',
      name: 'Oakridge Pharmacy – dispensary refit loan',
      business: 'oakridge',
      recipient: RECIPIENT.evergreen,
      stage: DEAL_STAGE.submitted,
      minutesAgo: 15 * DAY,
      seed: dealSeed(OAKRIDGE, 'documents'),
      submitted: true,
    }),
    // The Portal's own deal: no recipient.
    deal({
      slug: 'meridiancnc',
      name: 'Meridian Engineering – CNC equipment finance',
      business: 'meridian',
      recipient: null,
      stage: DEAL_STAGE.draft,
      minutesAgo: 9 * DAY,
      seed: dealSeed(MERIDIAN, 'directors'),
    }),
  ];
}

export function buildDeals(): SeedDeals {
  return {
    deal_pipelines: dealPipelines(),
    recipients: recipients(),
    default_deal_contract_version: DEAL_CONTRACT_VERSION,
    deals: deals(),
  };
}
