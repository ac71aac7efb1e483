import type { AnswerValue, ContractSection, Question, RepeatableGroup } from '@/lib/portal';

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

export interface SeedData {
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
