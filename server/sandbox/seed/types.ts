import type { AnswerValue, ContractSection, Question, RepeatableGroup } from '@/lib/portal';
import type { FunderProfile } from '../funding/types';

/**
 * What the seed hands the sandbox's store. A contract template is a contract without the parts that
 * belong to one application (resource, operations, answers_revision): the store adds those per application.
 */
export interface ContractTemplate {
  contract_version: string;
  application_name: string;
  description: string;
  instructions: string;
  sections: ContractSection[];
  repeatable_groups: RepeatableGroup[];
  questions: Question[];
}

export interface SeedStage {
  id: string; // bstg_… or dstg_…
  name: string;
}

export interface SeedPipeline {
  id: string; // bpipe_… or dpipe_…
  name: string;
  stages: SeedStage[]; // in order
}

export interface SeedTag {
  id: string; // ptag_…
  name: string;
  color: string | null;
}

export interface SeedPerson {
  id: string; // pers_…
  full_name: string;
  email: string;
  phone_number: string;
  company_name: string;
  job_title: string;
  notes: string;
  is_do_not_contact: boolean;
  is_primary: boolean;
  owner: { email: string; name: string } | null;
  tag_ids: string[];
}

/** A seeded answer outside repeatable groups. */
export interface SeedAnswer {
  block_key: string;
  schema_key: string;
  field_key: string;
  value: AnswerValue;
}

/** A seeded repeatable item; children are items of groups whose parent_block_key is this item's block. */
export interface SeedItem {
  block_key: string;
  answers: Array<{ schema_key: string; field_key: string; value: AnswerValue }>;
  children?: SeedItem[];
}

export interface SeedBusiness {
  id: string; // biz_…
  name: string | null;
  application_id: string; // ciappl_…
  contract_version: string; // key into SeedData.contracts
  pipeline_id: string;
  stage_id: string;
  is_sample?: boolean;
  /** Minutes before the seed's reference time at which the business was created (keeps ordering stable). */
  created_minutes_ago: number;
  people: SeedPerson[];
  answers: SeedAnswer[];
  items: SeedItem[];
  /** Seeded as already submitted (answers complete). */
  submitted: boolean;
}

/** A stage of a deal pipeline; `outcome` marks a stage that closes the deal (the deal's status). */
interface SeedDealStage extends SeedStage {
  outcome?: 'won' | 'lost';
}

export interface SeedDealPipeline extends SeedPipeline {
  stages: SeedDealStage[]; // in order; a new deal starts at the first
}

/** An organisation a deal can be made for (DESIGN.md §5 `recipients/`). */
export interface SeedRecipient {
  id: string; // rcpt_…
  name: string;
}

export interface SeedDeal {
  id: string; // deal_…
  name: string;
  business_id: string; // a SeedBusiness id; the deal is left out when its business is not seeded
  /** null: a deal for the Portal itself. */
  recipient_id: string | null;
  pipeline_id: string;
  stage_id: string;
  application_id: string; // dapp_…
  contract_version: string; // key into SeedData.contracts
  is_sample?: boolean;
  created_minutes_ago: number;
  answers: SeedAnswer[];
  items: SeedItem[];
  /** The deal application was seeded as submitted (answers complete). */
  submitted: boolean;
}

/** The deal part of the seed (seed/deals.ts). */
export interface SeedDeals {
  deal_pipelines: SeedDealPipeline[];
  recipients: SeedRecipient[];
  /** The contract a newly created deal's application gets. */
  default_deal_contract_version: string;
  deals: SeedDeal[];
}

/** A seeded match run of a project: completed (with decisions on some matches) or failed. */
export type SeedMatchRun =
  | {
      id: string; // mrun_…
      minutes_ago: number;
      outcome: 'completed';
      /** Matches by `recipient_id|product_key`. */
      shortlisted: string[];
      dismissed: string[];
    }
  | { id: string; minutes_ago: number; outcome: 'failed'; failure: { code: string; message: string } };

/** A funding project of a seeded business (DESIGN.md §6); its criteria are prefilled from the intake answers. */
export interface SeedProject {
  id: string; // proj_…
  criteria_id: string; // pcrit_…
  business_id: string; // a SeedBusiness id; the project is left out when its business is not seeded
  name: string;
  created_minutes_ago: number;
  /** Criteria answers written after the prefill (what staff completed). */
  answers: SeedAnswer[];
  run: SeedMatchRun | null;
}

/** The funding part of the seed (seed/funders.ts, seed/projects.ts). */
export interface SeedFunding {
  funders: FunderProfile[];
  projects: SeedProject[];
}

export interface SeedData extends SeedDeals, SeedFunding {
  portal: { id: string; name: string };
  /** Channel slugs a source key may target. */
  channel_slugs: string[];
  business_pipelines: SeedPipeline[];
  /** The pipeline and stage a newly created business starts in. */
  default_business_stage: { pipeline_id: string; stage_id: string };
  /** The contract a newly created business's application gets. */
  default_contract_version: string;
  contracts: Record<string, ContractTemplate>;
  tags: SeedTag[];
  businesses: SeedBusiness[];
}
