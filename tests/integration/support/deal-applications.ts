import { expect } from 'vitest';
import { isAnswered, isVisible } from '@/lib/contract';
import {
  AnswerPage,
  AnswersMutationResult,
  ApplicationContract,
  BusinessFileUploadResult,
  Deal,
  DealAnswersMutationResult,
  FileUploadCredential,
  RepeatableItemMutationResult,
  RepeatableItemPage,
  type AnswerItem,
  type AnswerValue,
  type DealCreateBody,
  type Question,
  type RepeatableGroup,
  type RepeatableItem,
} from '@/lib/portal';
import { putFile } from './applications';
import { newKey, type SandboxClient } from './sandbox';

/*
 * Helpers for deal (and any other) applications that follow the URLs a contract returns in `operations`
 * instead of building paths, so the same code drives a deal application and a client intake application.
 */

/** POST deals/ with a fresh Idempotency-Key; asserts 201 and parses the strict Deal. */
export async function createDeal(client: SandboxClient, body: DealCreateBody, key?: string) {
  const res = await client.post('deals/', { body, idempotencyKey: newKey('deal'), key });
  if (res.status !== 201) throw new Error(`deal create → ${res.status}: ${res.text}`);
  return { res, deal: Deal.parse(res.body) };
}

async function readContractAt(client: SandboxClient, contractUrl: string) {
  return (await client.read(ApplicationContract, contractUrl)).data;
}

type Write = { block_key: string; schema_key: string; field_key: string; value: unknown };
type ItemWrite = Omit<Write, 'block_key'>;

/** One application reached through its contract's operation URLs. */
export class ContractDriver {
  constructor(
    readonly client: SandboxClient,
    readonly contract: ApplicationContract,
  ) {}

  static async open(client: SandboxClient, contractUrl: string) {
    return new ContractDriver(client, await readContractAt(client, contractUrl));
  }

  get ops() {
    return this.contract.operations;
  }

  /** Every top-level answer with the answers ETag of the last page read. */
  async answers(pageSize = 500) {
    const items: AnswerItem[] = [];
    let cursor: string | null = null;
    let revision = -1;
    let etag = '';
    do {
      const url = new URL(this.ops.read_answers_url);
      url.searchParams.set('page_size', String(pageSize));
      if (cursor) url.searchParams.set('cursor', cursor);
      const { res, data } = await this.client.read(AnswerPage, url.toString());
      items.push(...data.items);
      revision = data.answers_revision;
      etag = res.headers.get('etag')!;
      cursor = data.next_cursor;
    } while (cursor);
    return { items, revision, etag };
  }

  /** PATCH answers with the current revision and ETag. */
  async write(answers: Write[]) {
    const { revision, etag } = await this.answers(1);
    return this.client.patch(this.ops.update_answers_url, { ifMatch: etag, body: { answers_revision: revision, answers } });
  }

  async mustWrite(answers: Write[]) {
    const res = await this.write(answers);
    if (res.status !== 200) throw new Error(`answer write → ${res.status}: ${res.text}`);
    const schema = this.contract.resource.object === 'deal_application' ? DealAnswersMutationResult : AnswersMutationResult;
    return schema.parse(res.body);
  }

  itemsUrl(blockKey: string) {
    return `${this.ops.repeatable_items_url}${blockKey}/`;
  }

  async items(blockKey: string, parentItemId?: string) {
    const url = new URL(this.itemsUrl(blockKey));
    if (parentItemId) url.searchParams.set('parent_item_id', parentItemId);
    const { res, data } = await this.client.read(RepeatableItemPage, url.toString());
    return { etag: res.headers.get('etag')!, page: data };
  }

  async createItem(blockKey: string, answers: ItemWrite[] = [], parentItemId?: string) {
    const res = await this.client.post(this.itemsUrl(blockKey), {
      body: { block_key: blockKey, ...(parentItemId ? { parent_item_id: parentItemId } : {}), answers },
    });
    if (res.status !== 201) throw new Error(`item create → ${res.status}: ${res.text}`);
    return RepeatableItemMutationResult.parse(res.body);
  }

  async updateItem(blockKey: string, itemId: string, answers: ItemWrite[]) {
    const { revision, etag } = await this.answers(1);
    return this.client.patch(`${this.itemsUrl(blockKey)}${itemId}/`, { ifMatch: etag, body: { answers_revision: revision, answers } });
  }

  async requestUpload(target: { block_key: string; schema_key: string; field_key: string; item_id?: string }) {
    const res = await this.client.post(this.ops.file_uploads_url, { body: target });
    if (res.status !== 201) throw new Error(`file-uploads → ${res.status}: ${res.text}`);
    return FileUploadCredential.parse(res.body);
  }

  async upload(target: { block_key: string; schema_key: string; field_key: string; item_id?: string }, content = '%PDF-1.4\n% test\n', filename = 'document.pdf') {
    const credential = await this.requestUpload(target);
    const res = await putFile(credential.upload_url, content, { filename });
    if (res.status !== 201) throw new Error(`upload → ${res.status}: ${res.text}`);
    return BusinessFileUploadResult.parse(res.body);
  }

  /**
   * Answers every visible required field from its `example` (repeating while answers reveal more questions),
   * uploads a file to every visible required file question, and creates and fills the items each group's
   * min_items asks for (nested groups too). Generic: nothing here knows a contract.
   */
  async fillFromExamples() {
    const questionsOf = (blockKey: string | null) =>
      this.contract.questions
        .filter((q) => (blockKey === null ? !q.is_repeatable : q.is_repeatable && q.block_key === blockKey))
        .sort((a, b) => a.order - b.order);
    type Lookup = (s: string, f: string) => AnswerValue | undefined;
    const missingRequired = (questions: Question[], lookup: Lookup) =>
      questions.flatMap((q) =>
        q.is_required && isVisible(q.visibility, lookup)
          ? q.fields.filter((f) => f.is_required && !isAnswered(lookup(q.schema_key, f.field_key))).map((f) => ({ q, f }))
          : [],
      );

    const top = questionsOf(null);
    for (let round = 0; round < 10; round++) {
      const values = new Map((await this.answers()).items.map((a) => [`${a.schema_key}|${a.field_key}`, a.value]));
      const missing = missingRequired(top, (s, f) => values.get(`${s}|${f}`));
      if (missing.length === 0) break;
      const writes = missing.filter((m) => m.q.answer_shape !== 'file');
      if (writes.length > 0) {
        await this.mustWrite(writes.map(({ q, f }) => ({ block_key: q.block_key, schema_key: q.schema_key, field_key: f.field_key, value: f.example })));
      }
      for (const { q, f } of missing.filter((m) => m.q.answer_shape === 'file')) {
        await this.upload({ block_key: q.block_key, schema_key: q.schema_key, field_key: f.field_key });
      }
    }
    const topValues = new Map((await this.answers()).items.map((a) => [`${a.schema_key}|${a.field_key}`, a.value]));

    const fillGroup = async (group: RepeatableGroup, parent: RepeatableItem | null, ancestors: RepeatableItem[]) => {
      const { page } = await this.items(group.block_key, parent?.item_id);
      const items = page.items.filter((i) => i.parent_item_id === (parent?.item_id ?? null));
      for (let n = items.length; n < (group.min_items ?? 0); n++) items.push((await this.createItem(group.block_key, [], parent?.item_id)).item);
      const questions = questionsOf(group.block_key);
      for (let item of items) {
        for (let round = 0; round < 10; round++) {
          const current = item;
          const lookup: Lookup = (s, f) => {
            for (const it of [current, ...ancestors]) {
              const a = it.answers.find((x) => x.schema_key === s && x.field_key === f);
              if (a) return a.value;
            }
            return topValues.get(`${s}|${f}`);
          };
          const missing = missingRequired(questions, lookup);
          if (missing.length === 0) break;
          const writes = missing.filter((m) => m.q.answer_shape !== 'file');
          if (writes.length > 0) {
            const res = await this.updateItem(group.block_key, item.item_id, writes.map(({ q, f }) => ({ schema_key: q.schema_key, field_key: f.field_key, value: f.example })));
            if (res.status !== 200) throw new Error(`item update → ${res.status}: ${res.text}`);
            item = RepeatableItemMutationResult.parse(res.body).item;
          }
          for (const { q, f } of missing.filter((m) => m.q.answer_shape === 'file')) {
            await this.upload({ block_key: group.block_key, schema_key: q.schema_key, field_key: f.field_key, item_id: item.item_id });
          }
          if (writes.length === 0) break;
        }
        for (const child of this.contract.repeatable_groups.filter((g) => g.parent_block_key === group.block_key)) {
          await fillGroup(child, item, [item, ...ancestors]);
        }
      }
    };
    for (const group of this.contract.repeatable_groups.filter((g) => g.parent_block_key === null)) await fillGroup(group, null, []);
    expect((await this.answers()).revision).toBeGreaterThan(0);
  }
}
