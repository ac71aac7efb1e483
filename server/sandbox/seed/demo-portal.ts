import type { AnswerValue } from '@/lib/portal';
import {
  EXAMPLE_ADDRESS,
  FUNDING_CONTRACT_VERSION,
  type ASSET_TYPES,
  type Address,
  type COMPANY_TYPES,
  type CONTACT_METHODS,
  type FUNDING_PURPOSES,
  type FUNDING_TIMELINES,
  type INDUSTRIES,
} from './funding-contract';
import { LARGE_CONTRACT_VERSION, largeContractSeedAnswers } from './large-contract';
import type {
  ContractTemplate,
  SeedAnswer,
  SeedBusiness,
  SeedData,
  SeedDeals,
  SeedFunding,
  SeedItem,
  SeedPerson,
  SeedPipeline,
  SeedTag,
} from './types';

/*
 * The demo Portal: a lender's pipeline with businesses at every stage, so each screen of the BFF has
 * something true to show (an empty application, partial answers, nested items, a submitted one, a sample).
 */

const DEMO_PORTAL = { id: 'portal_demo', name: 'Northwind Capital (demo)' };
const DEMO_CHANNEL_SLUGS = ['partner-web', 'broker-network', 'events-2026'];

const ONBOARDING = 'bpipe_onboarding';
const RENEWALS = 'bpipe_renewals';
const STAGE = {
  newLead: 'bstg_newlead',
  qualifying: 'bstg_qualifying',
  inProgress: 'bstg_appinprogress',
  submitted: 'bstg_submitted',
  underReview: 'bstg_underreview',
  approved: 'bstg_approved',
  declined: 'bstg_declined',
  renewalDue: 'bstg_renewaldue',
  renewalInProgress: 'bstg_renewalinprogress',
  renewed: 'bstg_renewed',
} as const;

const pipelines = (): SeedPipeline[] => [
  {
    id: ONBOARDING,
    name: 'Onboarding',
    stages: [
      { id: STAGE.newLead, name: 'New lead' },
      { id: STAGE.qualifying, name: 'Qualifying' },
      { id: STAGE.inProgress, name: 'Application in progress' },
      { id: STAGE.submitted, name: 'Submitted' },
      { id: STAGE.underReview, name: 'Under review' },
      { id: STAGE.approved, name: 'Approved' },
      { id: STAGE.declined, name: 'Declined' },
    ],
  },
  {
    id: RENEWALS,
    name: 'Renewals',
    stages: [
      { id: STAGE.renewalDue, name: 'Renewal due' },
      { id: STAGE.renewalInProgress, name: 'Renewal in progress' },
      { id: STAGE.renewed, name: 'Renewed' },
    ],
  },
];

const TAG = {
  decisionMaker: 'ptag_decisionmaker',
  guarantor: 'ptag_guarantor',
  accountant: 'ptag_accountant',
  vip: 'ptag_vip',
  broker: 'ptag_broker',
} as const;

const tags = (): SeedTag[] => [
  { id: TAG.decisionMaker, name: 'Decision maker', color: '#2563eb' },
  { id: TAG.guarantor, name: 'Guarantor', color: '#16a34a' },
  { id: TAG.accountant, name: 'Accountant', color: '#9333ea' },
  { id: TAG.vip, name: 'VIP', color: '#f59e0b' },
  // A tag without a colour, because the spec allows one.
  { id: TAG.broker, name: 'Broker', color: null },
];

/* People. */

const STAFF = {
  priya: { email: 'priya.shah@northwind.example', name: 'Priya Shah' },
  tom: { email: 'tom.okafor@northwind.example', name: 'Tom Okafor' },
};

interface PersonInput {
  slug: string;
  name: string;
  email: string;
  phone: string;
  title: string;
  tags?: string[];
  primary?: boolean;
  notes?: string;
  doNotContact?: boolean;
  owner?: { email: string; name: string } | null;
}

const person = (company: string | null, p: PersonInput): SeedPerson => ({
  id: `pers_${p.slug}`,
  full_name: p.name,
  email: p.email,
  phone_number: p.phone,
  company_name: company ?? '',
  job_title: p.title,
  notes: p.notes ?? '',
  is_do_not_contact: p.doNotContact ?? false,
  is_primary: p.primary ?? false,
  owner: p.owner === undefined ? STAFF.priya : p.owner,
  tag_ids: p.tags ?? [],
});

/* Funding answers, written from a profile of the business so that partial and complete ones stay consistent. */

interface OwnerProfile {
  name: string;
  email: string;
  pct: number;
  dob: string;
  guaranteeLimit: number | null; // null: not a guarantor
  addresses: Array<{ address: Address; years: number }>;
}

interface AssetProfile {
  description: string;
  type: (typeof ASSET_TYPES)[number];
  value: number;
  financeOutstanding: number | null; // null: not financed
}

interface FundingProfile {
  legal_name: string;
  trading_name: string | null;
  company_type: (typeof COMPANY_TYPES)[number];
  registration_number: string | null; // only for incorporated types, where the question is visible
  date_established: string;
  industry: (typeof INDUSTRIES)[number];
  employee_count: number;
  website: string | null;
  online_presence_url: string | null; // only without a website, where the question is visible
  address: Address;
  description: string;
  contact: {
    name: string;
    role: string | null;
    email: string;
    phone: string;
    preferred: (typeof CONTACT_METHODS)[number] | null;
  };
  amount: number;
  purposes: Array<(typeof FUNDING_PURPOSES)[number]>;
  purpose_details: string | null; // only when purposes include "other"
  timeline: (typeof FUNDING_TIMELINES)[number];
  term_months: number | null;
  collateral: boolean;
  revenue: number;
  net_profit: number;
  gross_margin: number | null;
  year_end: string;
  debt: { amount: number; lenders: string | null } | null;
  accountant: { name: string; email: string | null } | null;
  owners: OwnerProfile[];
  assets: AssetProfile[];
  signed: { name: string; date: string; marketing: boolean };
}

const STEPS = ['business', 'contact', 'funding', 'financials', 'owners', 'assets', 'declarations'] as const;
type Step = (typeof STEPS)[number];

/** Arrays are copied: the profiles are shared, and the store may mutate what a seed hands it. */
const answer = (key: string, value: AnswerValue | undefined, field_key = 'value'): SeedAnswer[] =>
  value === null || value === undefined
    ? []
    : [
        {
          block_key: key,
          schema_key: key,
          field_key,
          value: Array.isArray(value) ? ([...value] as AnswerValue) : value,
        },
      ];

/** Empty optional lines are left unanswered rather than written as "". */
const addressValues = (address: Address) =>
  Object.entries(address).filter(([, value]) => value !== '') as Array<[keyof Address, string]>;

const itemAnswer = (schema_key: string, value: AnswerValue, field_key = 'value') => ({ schema_key, field_key, value });

function ownerItem(owner: OwnerProfile): SeedItem {
  return {
    block_key: 'owners',
    answers: [
      itemAnswer('owner_full_name', owner.name),
      itemAnswer('owner_email', owner.email),
      itemAnswer('owner_ownership_pct', owner.pct),
      itemAnswer('owner_dob', owner.dob),
      itemAnswer('owner_is_guarantor', owner.guaranteeLimit !== null),
      ...(owner.guaranteeLimit === null ? [] : [itemAnswer('owner_guarantee_limit', owner.guaranteeLimit)]),
    ],
    children: owner.addresses.map(({ address, years }) => ({
      block_key: 'owner_addresses',
      answers: [
        ...addressValues(address).map(([field, value]) => itemAnswer('owner_address', value, field)),
        itemAnswer('owner_years_at_address', years),
      ],
    })),
  };
}

const assetItem = (asset: AssetProfile): SeedItem => ({
  block_key: 'assets',
  answers: [
    itemAnswer('asset_description', asset.description),
    itemAnswer('asset_type', asset.type),
    itemAnswer('asset_value', asset.value),
    itemAnswer('asset_is_financed', asset.financeOutstanding !== null),
    ...(asset.financeOutstanding === null ? [] : [itemAnswer('asset_finance_outstanding', asset.financeOutstanding)]),
  ],
});

const STEP_ANSWERS: Record<Step, (p: FundingProfile) => SeedAnswer[]> = {
  business: (p) => [
    ...answer('legal_name', p.legal_name),
    ...answer('trading_name', p.trading_name),
    ...answer('company_type', p.company_type),
    ...answer('registration_number', p.registration_number),
    ...answer('date_established', p.date_established),
    ...answer('industry', p.industry),
    ...answer('employee_count', p.employee_count),
    ...answer('website', p.website),
    ...answer('online_presence_url', p.online_presence_url),
    ...addressValues(p.address).flatMap(([field, value]) => answer('business_address', value, field)),
    ...answer('business_description', p.description),
  ],
  contact: (p) => [
    ...answer('contact_name', p.contact.name),
    ...answer('contact_role', p.contact.role),
    ...answer('contact_email', p.contact.email),
    ...answer('contact_phone', p.contact.phone),
    ...answer('preferred_contact', p.contact.preferred),
  ],
  funding: (p) => [
    ...answer('funding_amount', p.amount),
    ...answer('funding_purpose', p.purposes),
    ...answer('purpose_details', p.purpose_details),
    ...answer('funding_timeline', p.timeline),
    ...answer('preferred_term_months', p.term_months),
    ...answer('can_offer_collateral', p.collateral),
  ],
  financials: (p) => [
    ...answer('annual_revenue', p.revenue),
    ...answer('net_profit', p.net_profit),
    ...answer('gross_margin', p.gross_margin),
    ...answer('financial_year_end', p.year_end),
    ...answer('has_existing_debt', p.debt !== null),
    ...answer('existing_debt_amount', p.debt?.amount),
    ...answer('existing_lenders', p.debt?.lenders),
    ...answer('accountant_name', p.accountant?.name),
    ...answer('accountant_email', p.accountant?.email),
  ],
  owners: () => [],
  assets: () => [],
  declarations: (p) => [
    ...answer('decl_accurate', true),
    ...answer('decl_credit_check', true),
    ...answer('marketing_opt_in', p.signed.marketing),
    ...answer('signatory_name', p.signed.name),
    ...answer('signature_date', p.signed.date),
  ],
};

/** Answers and items of the profile's sections up to and including `through`. */
function fundingSeed(p: FundingProfile, through: Step): Pick<SeedBusiness, 'answers' | 'items'> {
  const steps = STEPS.slice(0, STEPS.indexOf(through) + 1);
  return {
    answers: steps.flatMap((step) => STEP_ANSWERS[step](p)),
    items: [
      ...(steps.includes('owners') ? p.owners.map(ownerItem) : []),
      ...(steps.includes('assets') ? p.assets.map(assetItem) : []),
    ],
  };
}

/* Profiles. */

const MERIDIAN: FundingProfile = {
  legal_name: 'Meridian Engineering Ltd',
  trading_name: 'Meridian Engineering',
  company_type: 'limited_company',
  registration_number: '09876543',
  date_established: '2016-04-01',
  industry: 'manufacturing',
  employee_count: 24,
  website: 'https://meridian-engineering.example',
  online_presence_url: null,
  address: EXAMPLE_ADDRESS,
  description: 'We design and machine precision parts for rail and aerospace customers across the UK and Europe.',
  contact: {
    name: 'Alex Morgan',
    role: 'Finance director',
    email: 'alex.morgan@meridian-engineering.example',
    phone: '+44 113 496 0123',
    preferred: 'email',
  },
  amount: 250_000,
  purposes: ['equipment', 'working_capital'],
  purpose_details: null,
  timeline: 'within_one_month',
  term_months: 60,
  collateral: true,
  revenue: 1_850_000,
  net_profit: 142_500.5,
  gross_margin: 38.5,
  year_end: '2025-03-31',
  debt: { amount: 48_000, lenders: 'Barclays overdraft' },
  accountant: { name: 'Whitfield & Co', email: 'hello@whitfield.example' },
  owners: [
    {
      name: 'Alex Morgan',
      email: 'alex.morgan@meridian-engineering.example',
      pct: 60,
      dob: '1979-08-14',
      guaranteeLimit: 100_000,
      addresses: [
        {
          address: {
            line1: '7 Orchard Close',
            line2: '',
            city: 'Harrogate',
            region: 'North Yorkshire',
            postal_code: 'HG1 2QR',
            country: 'GB',
          },
          years: 6,
        },
      ],
    },
    {
      name: 'Sam Patel',
      email: 'sam.patel@meridian-engineering.example',
      pct: 40,
      dob: '1984-02-02',
      guaranteeLimit: null,
      addresses: [
        {
          address: {
            line1: '22 Mill Street',
            line2: 'Flat 5',
            city: 'Leeds',
            region: '',
            postal_code: 'LS9 8DT',
            country: 'GB',
          },
          years: 1,
        },
        {
          address: {
            line1: '3 Canal Wharf',
            line2: '',
            city: 'Manchester',
            region: '',
            postal_code: 'M1 3LW',
            country: 'GB',
          },
          years: 3,
        },
      ],
    },
  ],
  assets: [
    { description: 'CNC milling machine', type: 'equipment', value: 85_000, financeOutstanding: 12_000 },
    { description: 'Delivery van', type: 'vehicle', value: 18_500, financeOutstanding: null },
  ],
  signed: { name: 'Alex Morgan', date: '2026-01-12', marketing: false },
};

const OAKRIDGE: FundingProfile = {
  ...MERIDIAN,
  legal_name: 'Oakridge Pharmacy LLC',
  trading_name: 'Oakridge Pharmacy',
  company_type: 'llc',
  registration_number: 'LLC-201904120',
  date_established: '2019-04-12',
  industry: 'healthcare',
  employee_count: 9,
  website: 'https://oakridge-pharmacy.example',
  address: {
    line1: '455 Mission Street',
    line2: 'Suite 200',
    city: 'San Francisco',
    region: 'CA',
    postal_code: '94105',
    country: 'US',
  },
  description: 'An independent pharmacy with a compounding lab and a home-delivery service.',
  contact: {
    name: 'Dana Reyes',
    role: 'Owner',
    email: 'dana@oakridge-pharmacy.example',
    phone: '+1 415 555 0142',
    preferred: 'phone',
  },
  amount: 420_000,
  purposes: ['property', 'other'],
  purpose_details: 'Buy the freehold of our current premises and refit the dispensary to meet new regulations.',
  timeline: 'within_three_months',
  term_months: 180,
  revenue: 2_310_000,
  net_profit: 96_400,
  gross_margin: 24,
  year_end: '2025-12-31',
  debt: null,
  accountant: { name: 'Bayview CPA Group', email: null },
  owners: [
    {
      name: 'Dana Reyes',
      email: 'dana@oakridge-pharmacy.example',
      pct: 100,
      dob: '1981-11-03',
      guaranteeLimit: 420_000,
      addresses: [
        {
          address: {
            line1: '88 Lombard Street',
            line2: '',
            city: 'San Francisco',
            region: 'CA',
            postal_code: '94111',
            country: 'US',
          },
          years: 8,
        },
      ],
    },
  ],
  assets: [
    {
      description: 'Pharmacy premises (leasehold improvements)',
      type: 'property',
      value: 150_000,
      financeOutstanding: null,
    },
  ],
  signed: { name: 'Dana Reyes', date: '2026-01-20', marketing: true },
};

const PINECREST: FundingProfile = {
  ...MERIDIAN,
  legal_name: 'Pinecrest Brewing Co.',
  trading_name: null,
  company_type: 'corporation',
  registration_number: 'OR-1182734',
  date_established: '2012-06-15',
  industry: 'hospitality',
  employee_count: 57,
  website: 'https://pinecrest-brewing.example',
  address: {
    line1: '2100 NW Front Avenue',
    line2: '',
    city: 'Portland',
    region: 'OR',
    postal_code: '97209',
    country: 'US',
  },
  description: 'A craft brewery with a taproom, distributing to bars and grocers across the Pacific Northwest.',
  contact: {
    name: 'Jordan Lee',
    role: 'Chief executive',
    email: 'jordan@pinecrest-brewing.example',
    phone: '+1 503 555 0177',
    preferred: 'either',
  },
  amount: 1_200_000,
  purposes: ['expansion', 'inventory'],
  timeline: 'flexible',
  term_months: 84,
  revenue: 6_400_000,
  net_profit: 512_000,
  gross_margin: 41.25,
  year_end: '2025-09-30',
  debt: { amount: 310_000, lenders: 'Columbia Bank term loan' },
  accountant: null,
  owners: [
    {
      name: 'Jordan Lee',
      email: 'jordan@pinecrest-brewing.example',
      pct: 55,
      dob: '1976-03-21',
      guaranteeLimit: 500_000,
      addresses: [],
    },
    {
      name: 'Casey Nguyen',
      email: 'casey@pinecrest-brewing.example',
      pct: 45,
      dob: '1980-07-09',
      guaranteeLimit: null,
      addresses: [],
    },
  ],
  assets: [
    { description: 'Brewhouse and fermentation tanks', type: 'equipment', value: 780_000, financeOutstanding: 210_000 },
    { description: 'Finished stock', type: 'inventory', value: 95_000, financeOutstanding: null },
    { description: 'Trade debtors', type: 'receivables', value: 240_000, financeOutstanding: null },
  ],
  signed: { name: 'Jordan Lee', date: '2025-11-04', marketing: false },
};

/** A partnership without a website: no registration number, and the social-media question shows instead. */
const BLUEWAVE: FundingProfile = {
  ...MERIDIAN,
  legal_name: 'Bluewave Fitness',
  trading_name: null,
  company_type: 'partnership',
  registration_number: null,
  date_established: '2020-09-01',
  industry: 'other',
  employee_count: 6,
  website: null,
  online_presence_url: 'https://social.example/bluewavefitness',
  address: {
    line1: '5 Marine Parade',
    line2: '',
    city: 'Brighton',
    region: 'East Sussex',
    postal_code: 'BN2 1TL',
    country: 'GB',
  },
  description: 'A seafront gym and swimming coaching business.',
  contact: {
    name: 'Morgan Blake',
    role: 'Partner',
    email: 'morgan@bluewave.example',
    phone: '+44 1273 496 011',
    preferred: null,
  },
  amount: 60_000,
  purposes: ['refinancing'],
  timeline: 'within_two_weeks',
  term_months: null,
  collateral: false,
  revenue: 310_000,
  net_profit: -8_250,
  gross_margin: null,
  year_end: '2025-08-31',
  debt: { amount: 52_000, lenders: null },
  accountant: null,
  owners: [
    {
      name: 'Morgan Blake',
      email: 'morgan@bluewave.example',
      pct: 50,
      dob: '1990-05-30',
      guaranteeLimit: 30_000,
      addresses: [],
    },
    {
      name: 'Riley Evans',
      email: 'riley@bluewave.example',
      pct: 50,
      dob: '1988-12-12',
      guaranteeLimit: 30_000,
      addresses: [],
    },
  ],
  assets: [],
  signed: { name: 'Morgan Blake', date: '2025-10-02', marketing: false },
};

const SUNRISE: FundingProfile = {
  ...BLUEWAVE,
  legal_name: 'Sunrise Bakery',
  company_type: 'sole_trader',
  online_presence_url: null,
  website: 'https://sunrise-bakery.example',
  industry: 'retail',
  employee_count: 4,
  date_established: '2021-02-14',
  address: { line1: '31 High Street', line2: '', city: 'Bath', region: '', postal_code: 'BA1 5AW', country: 'GB' },
  description: 'A sourdough bakery and café; this is a fictional example business.',
  contact: {
    name: 'Jamie Rowe',
    role: 'Owner',
    email: 'jamie@sunrise-bakery.example',
    phone: '+44 1225 496 072',
    preferred: 'email',
  },
};

const GREENLEAF: FundingProfile = {
  ...BLUEWAVE,
  legal_name: 'Greenleaf Landscaping',
  company_type: 'sole_trader',
  industry: 'construction',
  employee_count: 3,
  date_established: '2018-03-05',
  online_presence_url: 'https://marketplace.example/greenleaf',
  address: { line1: '9 Elm Road', line2: '', city: 'Columbus', region: 'OH', postal_code: '43215', country: 'US' },
  description: 'Garden design, landscaping and grounds maintenance for homes and offices.',
};

/** Purpose "other" and existing debt, so the conditional questions of both sections are answered. */
const FAIRWAY: FundingProfile = {
  ...MERIDIAN,
  legal_name: 'Fairway Veterinary Clinic LLP',
  trading_name: 'Fairway Vets',
  company_type: 'llp',
  registration_number: 'OC412233',
  industry: 'healthcare',
  employee_count: 14,
  website: 'https://fairway-vets.example',
  address: { line1: '2 Fairway Drive', line2: '', city: 'Cardiff', region: '', postal_code: 'CF10 1AA', country: 'GB' },
  description: 'A small-animal practice with an out-of-hours emergency service.',
  contact: {
    name: 'Chris Hughes',
    role: 'Practice manager',
    email: 'chris@fairway-vets.example',
    phone: '+44 29 2018 0456',
    preferred: 'phone',
  },
  amount: 135_000,
  purposes: ['equipment', 'other'],
  purpose_details: 'A digital X-ray suite and the building work to house it.',
  debt: { amount: 22_500.75, lenders: 'Practice equipment lease' },
  accountant: { name: 'Lewis & Price Accountants', email: 'team@lewisprice.example' },
};

const BRIGHTPATH: FundingProfile = {
  ...MERIDIAN,
  legal_name: 'Brightpath Dental Group Ltd',
  trading_name: 'Brightpath Dental',
  registration_number: '11223344',
  industry: 'healthcare',
  employee_count: 31,
  website: 'https://brightpath-dental.example',
  address: {
    line1: '120 Deansgate',
    line2: 'Second floor',
    city: 'Manchester',
    region: '',
    postal_code: 'M3 2BQ',
    country: 'GB',
  },
  description: 'Three dental practices offering NHS and private treatment.',
  contact: {
    name: 'Nadia Karim',
    role: 'Managing director',
    email: 'nadia@brightpath-dental.example',
    phone: '+44 161 496 0789',
    preferred: 'email',
  },
  amount: 380_000,
  purposes: ['acquisition'],
  owners: [
    {
      name: 'Nadia Karim',
      email: 'nadia@brightpath-dental.example',
      pct: 75,
      dob: '1983-09-17',
      guaranteeLimit: 200_000,
      addresses: [
        {
          address: {
            line1: '41 Palatine Road',
            line2: '',
            city: 'Manchester',
            region: '',
            postal_code: 'M20 3JH',
            country: 'GB',
          },
          years: 2,
        },
      ],
    },
    {
      name: 'Owen Clarke',
      email: 'owen@brightpath-dental.example',
      pct: 25,
      dob: '1987-01-25',
      guaranteeLimit: null,
      addresses: [],
    },
  ],
};

const LUMEN: FundingProfile = {
  ...GREENLEAF,
  legal_name: 'Lumen Print Studio',
  industry: 'professional_services',
  website: 'https://lumen-print.example',
  online_presence_url: null,
  address: { line1: '17 Printers Row', line2: '', city: 'Chicago', region: 'IL', postal_code: '60605', country: 'US' },
  description: 'Large-format printing and signage.',
  contact: {
    name: 'Avery Brooks',
    role: 'Owner',
    email: 'avery@lumen-print.example',
    phone: '+1 312 555 0199',
    preferred: null,
  },
  amount: 5_000_000,
  purposes: ['acquisition', 'expansion'],
  timeline: 'within_two_weeks',
};

const STONEBRIDGE: FundingProfile = {
  ...MERIDIAN,
  legal_name: 'Stonebridge Joinery Ltd',
  trading_name: null,
  registration_number: '07654321',
  industry: 'construction',
  employee_count: 11,
  website: 'https://stonebridge-joinery.example',
  address: {
    line1: 'Stonebridge Works',
    line2: 'Quarry Lane',
    city: 'Bristol',
    region: '',
    postal_code: 'BS3 4QD',
    country: 'GB',
  },
  description: 'Bespoke kitchens, staircases and commercial fit-outs.',
  contact: {
    name: 'Ellis Ward',
    role: 'Director',
    email: 'ellis@stonebridge-joinery.example',
    phone: '+44 117 496 0314',
    preferred: 'either',
  },
  amount: 90_000,
  purposes: ['working_capital'],
  debt: null,
  accountant: { name: 'Harbourside Accounts', email: null },
};

/* Businesses. */

interface BusinessInput {
  slug: string;
  name: string | null;
  stage: [pipeline: string, stage: string];
  minutesAgo: number;
  people: PersonInput[];
  seed?: Pick<SeedBusiness, 'answers' | 'items'>;
  contract?: string;
  submitted?: boolean;
  sample?: boolean;
}

const business = (b: BusinessInput): SeedBusiness => ({
  id: `biz_${b.slug}`,
  name: b.name,
  application_id: `ciappl_${b.slug}`,
  contract_version: b.contract ?? FUNDING_CONTRACT_VERSION,
  pipeline_id: b.stage[0],
  stage_id: b.stage[1],
  ...(b.sample ? { is_sample: true } : {}),
  created_minutes_ago: b.minutesAgo,
  people: b.people.map((p) => person(b.name, p)),
  answers: b.seed?.answers ?? [],
  items: b.seed?.items ?? [],
  submitted: b.submitted ?? false,
});

const DAY = 24 * 60;

function businesses(large: ContractTemplate): SeedBusiness[] {
  return [
    business({
      slug: 'sunrisebakery',
      name: 'Sunrise Bakery (sample)',
      sample: true,
      stage: [ONBOARDING, STAGE.newLead],
      minutesAgo: 30 * DAY,
      seed: fundingSeed(SUNRISE, 'contact'),
      people: [
        {
          slug: 'jamierowe',
          name: 'Jamie Rowe',
          email: 'jamie@sunrise-bakery.example',
          phone: '+44 1225 496 072',
          title: 'Owner',
          tags: [TAG.decisionMaker],
          primary: true,
          notes: 'Fictional example business for onboarding.',
          owner: null,
        },
      ],
    }),
    business({
      slug: 'harbourcafe',
      name: 'Harbour Street Café',
      stage: [ONBOARDING, STAGE.newLead],
      minutesAgo: 45,
      people: [
        {
          slug: 'lucafontana',
          name: 'Luca Fontana',
          email: 'luca@harbourcafe.example',
          phone: '+44 20 7946 0321',
          title: 'Owner',
          tags: [TAG.decisionMaker],
          primary: true,
          owner: null,
        },
      ],
    }),
    // A lead that arrived without a business name (spec 2.2 allows null).
    business({
      slug: 'unnamedlead',
      name: null,
      stage: [ONBOARDING, STAGE.newLead],
      minutesAgo: 90,
      people: [
        {
          slug: 'taylorquinn',
          name: 'Taylor Quinn',
          email: 'taylor.quinn@mail.example',
          phone: '+1 206 555 0110',
          title: '',
          primary: true,
          notes: 'Came in through the events-2026 form; business name still to confirm.',
          owner: null,
        },
      ],
    }),
    business({
      slug: 'greenleaf',
      name: 'Greenleaf Landscaping',
      stage: [ONBOARDING, STAGE.qualifying],
      minutesAgo: 3 * DAY,
      seed: fundingSeed(GREENLEAF, 'business'),
      people: [
        {
          slug: 'morganblakegl',
          name: 'Morgan Blake',
          email: 'morgan@greenleaf.example',
          phone: '+1 614 555 0134',
          title: 'Owner',
          tags: [TAG.decisionMaker, TAG.guarantor],
          primary: true,
        },
      ],
    }),
    business({
      slug: 'fairwayvets',
      name: 'Fairway Veterinary Clinic',
      stage: [ONBOARDING, STAGE.qualifying],
      minutesAgo: 5 * DAY,
      seed: fundingSeed(FAIRWAY, 'financials'),
      people: [
        {
          slug: 'chrishughes',
          name: 'Chris Hughes',
          email: 'chris@fairway-vets.example',
          phone: '+44 29 2018 0456',
          title: 'Practice manager',
          tags: [TAG.decisionMaker],
          primary: true,
          owner: STAFF.tom,
        },
        {
          slug: 'gwenlewis',
          name: 'Gwen Lewis',
          email: 'gwen@lewisprice.example',
          phone: '+44 29 2018 0999',
          title: 'Accountant',
          tags: [TAG.accountant],
          owner: STAFF.tom,
        },
      ],
    }),
    business({
      slug: 'brightpath',
      name: 'Brightpath Dental Group',
      stage: [ONBOARDING, STAGE.inProgress],
      minutesAgo: 7 * DAY,
      seed: fundingSeed(BRIGHTPATH, 'owners'),
      people: [
        {
          slug: 'nadiakarim',
          name: 'Nadia Karim',
          email: 'nadia@brightpath-dental.example',
          phone: '+44 161 496 0789',
          title: 'Managing director',
          tags: [TAG.decisionMaker, TAG.guarantor, TAG.vip],
          primary: true,
        },
        {
          slug: 'owenclarke',
          name: 'Owen Clarke',
          email: 'owen@brightpath-dental.example',
          phone: '+44 161 496 0790',
          title: 'Clinical director',
          tags: [],
        },
        {
          slug: 'ravisingh',
          name: 'Ravi Singh',
          email: 'ravi@brokerhouse.example',
          phone: '+44 20 7946 0555',
          title: 'Broker',
          tags: [TAG.broker],
          owner: null,
        },
      ],
    }),
    business({
      slug: 'atlaslogistics',
      name: 'Atlas Logistics (large form)',
      contract: LARGE_CONTRACT_VERSION,
      stage: [ONBOARDING, STAGE.inProgress],
      minutesAgo: 10 * DAY,
      seed: largeContractSeedAnswers(large, 8),
      people: [
        {
          slug: 'kimwalker',
          name: 'Kim Walker',
          email: 'kim@atlas-logistics.example',
          phone: '+1 510 555 0166',
          title: 'Operations director',
          tags: [TAG.decisionMaker],
          primary: true,
        },
      ],
    }),
    business({
      slug: 'meridian',
      name: 'Meridian Engineering',
      stage: [ONBOARDING, STAGE.submitted],
      minutesAgo: 12 * DAY,
      seed: fundingSeed(MERIDIAN, 'declarations'),
      submitted: true,
      people: [
        {
          slug: 'alexmorgan',
          name: 'Alex Morgan',
          email: 'alex.morgan@meridian-engineering.example',
          phone: '+44 113 496 0123',
          title: 'Finance director',
          tags: [TAG.decisionMaker, TAG.guarantor],
          primary: true,
        },
        {
          slug: 'sampatel',
          name: 'Sam Patel',
          email: 'sam.patel@meridian-engineering.example',
          phone: '+44 113 496 0124',
          title: 'Operations director',
          tags: [],
        },
        {
          slug: 'helenwhitfield',
          name: 'Helen Whitfield',
          email: 'helen@whitfield.example',
          phone: '+44 113 496 0999',
          title: 'Partner, Whitfield & Co',
          tags: [TAG.accountant],
          doNotContact: true,
          notes: 'Asked to be contacted only through Alex.',
        },
      ],
    }),
    business({
      slug: 'oakridge',
      name: 'Oakridge Pharmacy',
      stage: [ONBOARDING, STAGE.underReview],
      minutesAgo: 20 * DAY,
      seed: fundingSeed(OAKRIDGE, 'declarations'),
      submitted: true,
      people: [
        {
          slug: 'danareyes',
          name: 'Dana Reyes',
          email: 'dana@oakridge-pharmacy.example',
          phone: '+1 415 555 0142',
          title: 'Owner',
          tags: [TAG.decisionMaker, TAG.guarantor, TAG.vip],
          primary: true,
          owner: STAFF.tom,
        },
      ],
    }),
    business({
      slug: 'pinecrest',
      name: 'Pinecrest Brewing Co.',
      stage: [ONBOARDING, STAGE.approved],
      minutesAgo: 60 * DAY,
      seed: fundingSeed(PINECREST, 'declarations'),
      submitted: true,
      people: [
        {
          slug: 'jordanlee',
          name: 'Jordan Lee',
          email: 'jordan@pinecrest-brewing.example',
          phone: '+1 503 555 0177',
          title: 'Chief executive',
          tags: [TAG.decisionMaker, TAG.guarantor],
          primary: true,
        },
        {
          slug: 'caseynguyen',
          name: 'Casey Nguyen',
          email: 'casey@pinecrest-brewing.example',
          phone: '+1 503 555 0178',
          title: 'Head brewer',
          tags: [],
        },
      ],
    }),
    business({
      slug: 'lumenprint',
      name: 'Lumen Print Studio',
      stage: [ONBOARDING, STAGE.declined],
      minutesAgo: 40 * DAY,
      seed: fundingSeed(LUMEN, 'funding'),
      people: [
        {
          slug: 'averybrooks',
          name: 'Avery Brooks',
          email: 'avery@lumen-print.example',
          phone: '+1 312 555 0199',
          title: 'Owner',
          tags: [TAG.decisionMaker],
          primary: true,
          notes: 'Declined: requested amount far above turnover.',
        },
      ],
    }),
    business({
      slug: 'bluewave',
      name: 'Bluewave Fitness',
      stage: [RENEWALS, STAGE.renewalDue],
      minutesAgo: 300 * DAY,
      seed: fundingSeed(BLUEWAVE, 'declarations'),
      submitted: true,
      people: [
        {
          slug: 'morganblake',
          name: 'Morgan Blake',
          email: 'morgan@bluewave.example',
          phone: '+44 1273 496 011',
          title: 'Partner',
          tags: [TAG.decisionMaker, TAG.guarantor],
          primary: true,
        },
        {
          slug: 'rileyevans',
          name: 'Riley Evans',
          email: 'riley@bluewave.example',
          phone: '+44 1273 496 012',
          title: 'Partner',
          tags: [TAG.guarantor],
        },
      ],
    }),
    business({
      slug: 'stonebridge',
      name: 'Stonebridge Joinery',
      stage: [RENEWALS, STAGE.renewalInProgress],
      minutesAgo: 200 * DAY,
      seed: fundingSeed(STONEBRIDGE, 'financials'),
      people: [
        {
          slug: 'ellisward',
          name: 'Ellis Ward',
          email: 'ellis@stonebridge-joinery.example',
          phone: '+44 117 496 0314',
          title: 'Director',
          tags: [TAG.decisionMaker, TAG.vip],
          primary: true,
        },
      ],
    }),
  ];
}

export function buildDemoPortal(contracts: { large: ContractTemplate }): Omit<SeedData, 'contracts' | keyof SeedDeals | keyof SeedFunding> {
  return {
    portal: { ...DEMO_PORTAL },
    channel_slugs: [...DEMO_CHANNEL_SLUGS],
    business_pipelines: pipelines(),
    default_business_stage: { pipeline_id: ONBOARDING, stage_id: STAGE.newLead },
    default_contract_version: FUNDING_CONTRACT_VERSION,
    tags: tags(),
    businesses: businesses(contracts.large),
  };
}
