import type { SeedData, SeedItem } from '../seed/types';
import { nextSeq, newId } from './ids';
import type { ApplicationRec, BusinessRec, ItemRec, State } from './types';

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
    const app: ApplicationRec = {
      id: b.application_id,
      business_id: b.id,
      contract_version: b.contract_version,
      revision: b.submitted ? 1 : 0,
      answers_revision: 0,
      answers: {},
      items: {},
      files: {},
      submitted_at: b.submitted ? created : null,
      created_at: created,
      updated_at: created,
      answers_updated_at: null,
    };
    for (const a of b.answers) app.answers[`${a.block_key}|${a.schema_key}|${a.field_key}`] = a.value;
    const addItems = (items: SeedItem[], parent: string | null) => {
      for (const it of items) {
        const rec: ItemRec = { item_id: newId(state, 'repeatableItem'), block_key: it.block_key, parent_item_id: parent, seq: nextSeq(state), answers: {} };
        for (const a of it.answers) rec.answers[`${a.schema_key}|${a.field_key}`] = a.value;
        app.items[rec.item_id] = rec;
        addItems(it.children ?? [], rec.item_id);
      }
    };
    addItems(b.items, null);
    if (b.answers.length > 0 || b.items.length > 0) {
      app.answers_revision = 1;
      app.answers_updated_at = created;
    }
    state.businesses[business.id] = business;
    state.applications[app.id] = app;
  }
  return state;
}
