import type { AnswerValue } from '@/lib/portal';
import type { SeedAnswer, SeedProject } from './types';

/*
 * Funding projects of the demo businesses, one at each state the demo shows: Meridian's is matched (with a
 * shortlisted and a dismissed match), Fairway's is a draft whose criteria hold only what the intake
 * application gave, and Oakridge's last run failed (retry it to see its matches).
 */

const answer = (key: string, value: AnswerValue, field_key = 'value'): SeedAnswer => ({ block_key: key, schema_key: key, field_key, value });

const HOUR = 60;
const DAY = 24 * HOUR;

export function buildProjects(): SeedProject[] {
  return [
    {
      id: 'proj_meridiancnc',
      criteria_id: 'pcrit_meridiancnc',
      business_id: 'biz_meridian',
      name: 'Second CNC line and working capital',
      created_minutes_ago: 3 * DAY,
      answers: [
        answer('funding_currency', 'gbp'),
        answer('product_kinds', ['term_loan', 'equipment_finance']),
        answer('credit_band', 'good'),
        answer('collateral_types', ['equipment', 'personal_guarantee']),
      ],
      run: {
        id: 'mrun_meridiancnc1',
        minutes_ago: 2 * DAY,
        outcome: 'completed',
        shortlisted: ['rcpt_summitcredit|growth', 'rcpt_ironbridge|hp'],
        dismissed: ['rcpt_evergreen|community'],
      },
    },
    {
      id: 'proj_fairwayxray',
      criteria_id: 'pcrit_fairwayxray',
      business_id: 'biz_fairwayvets',
      name: 'Digital X-ray suite',
      created_minutes_ago: 1 * DAY,
      answers: [],
      run: null,
    },
    {
      id: 'proj_oakridgefreehold',
      criteria_id: 'pcrit_oakridgefreehold',
      business_id: 'biz_oakridge',
      name: 'Freehold purchase and dispensary refit',
      created_minutes_ago: 2 * DAY,
      answers: [
        answer('funding_currency', 'usd'),
        answer('product_kinds', ['term_loan']),
        answer('credit_band', 'excellent'),
        answer('collateral_types', ['property', 'personal_guarantee']),
      ],
      run: {
        id: 'mrun_oakridgefreehold1',
        minutes_ago: 6 * HOUR,
        outcome: 'failed',
        failure: {
          code: 'funder_directory_unavailable',
          message: 'The funder directory stopped answering while funders were being screened. Retry the run.',
        },
      },
    },
  ];
}
