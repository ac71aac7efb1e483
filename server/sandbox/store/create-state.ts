import { seedFunding } from '../funding/seed';
import type { SeedAnswer, SeedData, SeedDeals, SeedItem } from '../seed/types';
import { nextSeq, newId } from './ids';
import type { ApplicationKind, ApplicationRec, BusinessRec, DealRec, ItemRec, State } from './types';

interface SeededApplication {
  id: string;
  kind: ApplicationKind;
  business_id: string;
  deal_id?: string;
  contract_version: string;
  answers: SeedAnswer[];
  items: SeedItem[];
  submitted: boolean;
}

/** An application record with its seeded answers and items, created (and submitted) at `created`. */
function seedApplication(state: State, a: SeededApplication, created: string): ApplicationRec {
  const app: ApplicationRec = {
    id: a.id,
    kind: a.kind,
    business_id: a.business_id,
    ...(a.deal_id ? { deal_id: a.deal_id } : {}),
    contract_version: a.contract_version,
    revision: a.submitted ? 1 : 0,
    answers_revision: 0,
    answers: {},
    items: {},
    files: {},
    submitted_at: a.submitted ? created : null,
    created_at: created,
    updated_at: created,
    answers_updated_at: null,
  };
  for (const x of a.answers) app.answers[`${x.block_key}|${x.schema_key}|${x.field_key}`] = x.value;
  const addItems = (items: SeedItem[], parent: string | null) => {
    for (const it of items) {
      const rec: ItemRec = { item_id: newId(state, 'repeatableItem'), block_key: it.block_key, parent_item_id: parent, seq: nextSeq(state), answers: {} };
      for (const x of it.answers) rec.answers[`${x.schema_key}|${x.field_key}`] = x.value;
      app.items[rec.item_id] = rec;
      addItems(it.children ?? [], rec.item_id);
    }
  };
  addItems(a.items, null);
  if (a.answers.length > 0 || a.items.length > 0) {
    app.answers_revision = 1;
    app.answers_updated_at = created;
  }
  return app;
}

/** Adds the seeded deals (those whose business is in the state) with their deal applications. */
function seedDeals(state: State, seed: SeedDeals, now: Date) {
  const ordered = [...seed.deals].sort((a, b) => b.created_minutes_ago - a.created_minutes_ago);
  for (const d of ordered) {
    if (!state.businesses[d.business_id]) continue; // an 'empty' seed keeps no businesses, so no deals either
    const created = new Date(now.getTime() - d.created_minutes_ago * 60_000).toISOString();
    const deal: DealRec = {
      id: d.id,
      seq: nextSeq(state),
      name: d.name,
      business_id: d.business_id,
      recipient_id: d.recipient_id,
      pipeline_id: d.pipeline_id,
      stage_id: d.stage_id,
      revision: 0,
      application_id: d.application_id,
      created_at: created,
      updated_at: created,
      ...(d.is_sample ? { is_sample: true } : {}),
    };
    state.deals[deal.id] = deal;
    state.applications[d.application_id] = seedApplication(
      state,
      { ...d, id: d.application_id, kind: 'deal', deal_id: d.id },
      created,
    );
  }
}

/** Builds the initial state from seed data, as of `now`. */
export function createState(seed: SeedData, now: Date): State {
  const state: State = {
    version: 1,
    seq: 0,
    portal: seed.portal,
    channel_slugs: seed.channel_slugs,
    business_pipelines: seed.business_pipelines,
    default_business_stage: seed.default_business_stage,
    default_contract_version: seed.default_contract_version,
    contracts: seed.contracts,
    tags: seed.tags,
    businesses: {},
    applications: {},
    uploads: {},
    deal_pipelines: seed.deal_pipelines,
    recipients: seed.recipients,
    default_deal_contract_version: seed.default_deal_contract_version,
    deals: {},
  };
  const ordered = [...seed.businesses].sort((a, b) => b.created_minutes_ago - a.created_minutes_ago);
  for (const b of ordered) {
    const created = new Date(now.getTime() - b.created_minutes_ago * 60_000).toISOString();
    const people = b.people.map(({ tag_ids, ...p }) => ({ ...p, tag_ids, created_at: created, updated_at: created }));
    const business: BusinessRec = {
      id: b.id,
      seq: nextSeq(state),
      name: b.name,
      pipeline_id: b.pipeline_id,
      stage_id: b.stage_id,
      revision: 0,
      status_updated_at: created,
      created_at: created,
      updated_at: created,
      ...(b.is_sample ? { is_sample: true } : {}),
      source_channel_id: null,
      application_id: b.application_id,
      people,
      people_revision: 0,
    };
    const app = seedApplication(
      state,
      { ...b, id: b.application_id, kind: 'client_intake', business_id: b.id },
      created,
    );
    state.businesses[business.id] = business;
    state.applications[app.id] = app;
  }
  seedDeals(state, seed, now);
  seedFunding(state, seed, now);
  return state;
}
