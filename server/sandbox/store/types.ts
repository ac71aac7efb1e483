import type { SavedIdempotency } from '../http/idempotency';
import type { AnswerValue } from '@/lib/portal';
import type { SeedData, SeedFunding, SeedPerson } from '../seed/types';
import type { AutofillState } from '../autofill/types';
import type { FundingState } from '../funding/types';

/**
 * The sandbox's whole state: the seed's portal, pipelines, contracts and tags as they are, its businesses and
 * deals as records by id. Plain JSON, so it can be written to and read from the data file as it is.
 */
export interface State extends Omit<SeedData, 'businesses' | 'deals' | keyof SeedFunding> {
  version: 1;
  /** Monotonic counter used for ids and keyset ordering. */
  seq: number;
  businesses: Record<string, BusinessRec>;
  applications: Record<string, ApplicationRec>;
  uploads: Record<string, UploadRec>;
  deals: Record<string, DealRec>;
  /** Autofill preparations, runs, suggestions and evidence uploads; created on first use (absent from older data files). */
  autofill?: AutofillState;
  /** Funders, projects, match runs and matches (DESIGN.md §6); created on first use when absent from an older data file. */
  funding?: FundingState;
  /** Only in the data file: the Idempotency-Keys of the last 24 hours and their first replies (IdempotencyStore). */
  idempotency?: SavedIdempotency;
}

/** A seeded person and a created one alike, with the times the store keeps. */
interface PersonRec extends SeedPerson {
  created_at: string;
  updated_at: string;
}

export interface BusinessRec {
  id: string;
  /** Creation order: the keyset of business pages. */
  seq: number;
  name: string | null;
  pipeline_id: string;
  stage_id: string;
  revision: number;
  status_updated_at: string;
  created_at: string;
  updated_at: string;
  is_sample?: boolean;
  source_channel_id: string | null;
  application_id: string;
  people: PersonRec[];
  people_revision: number;
}

export interface ItemRec {
  item_id: string;
  block_key: string;
  parent_item_id: string | null;
  /** Creation order among all items of the application (keyset of item pages). */
  seq: number;
  /** `schema_key|field_key` → value. */
  answers: Record<string, AnswerValue>;
}

export interface FileRec {
  id: string;
  seq: number;
  block_key: string;
  schema_key: string;
  field_key: string;
  item_id: string | null;
  filename: string;
  content_type: string;
  size: number;
  created_at: string;
  /** The bytes, base64: kept so the data file restores downloads and Autofill can read them. */
  content_base64: string;
}

/** Client intake applications (ciappl_), deal applications (dapp_) and project criteria (pcrit_) share the application machinery. */
export type ApplicationKind = 'client_intake' | 'deal' | 'criteria';

export interface ApplicationRec {
  id: string;
  /** Absent on client intake applications written before deal applications existed: read it with kindOf(). */
  kind?: ApplicationKind;
  /** The business (for a deal application: its deal's business). */
  business_id: string;
  /** The deal a deal application belongs to. */
  deal_id?: string;
  /** The project whose criteria these are. */
  project_id?: string;
  contract_version: string;
  revision: number;
  answers_revision: number;
  /** `block_key|schema_key|field_key` → value, for answers outside repeatable groups. */
  answers: Record<string, AnswerValue>;
  items: Record<string, ItemRec>;
  files: Record<string, FileRec>;
  submitted_at: string | null;
  created_at: string;
  updated_at: string;
  /** When answers last changed (status updated_at before submission). */
  answers_updated_at: string | null;
}

interface UploadRec {
  id: string;
  application_id: string;
  block_key: string;
  schema_key: string;
  field_key: string;
  item_id: string | null;
  request_path: string;
  multiple: boolean;
  token: string;
  expires_at: string;
}

export interface DealRec {
  id: string;
  /** Creation order: the keyset of deal pages. */
  seq: number;
  name: string;
  business_id: string;
  /** null: a deal for the Portal itself. */
  recipient_id: string | null;
  pipeline_id: string;
  stage_id: string;
  revision: number;
  application_id: string;
  /** A deal made for a funding match names its project and match (DESIGN.md §6). */
  project_id?: string;
  match_id?: string;
  created_at: string;
  updated_at: string;
  is_sample?: boolean;
}

/** The kind of an application record (records without one are client intake applications). */
export const kindOf = (app: Pick<ApplicationRec, 'kind'>): ApplicationKind => app.kind ?? 'client_intake';
