import { expect } from 'vitest';
import { isAnswered, isVisible } from '@/lib/contract';
import {
  AnswerPage,
  AnswersMutationResult,
  ApplicationContract,
  ApplicationEnvelope,
  BusinessCreateResult,
  BusinessFileUploadResult,
  FileUploadCredential,
  RepeatableItemMutationResult,
  RepeatableItemPage,
  type AnswerItem,
  type AnswerValue,
  type Question,
  type RepeatableGroup,
  type RepeatableItem,
} from '@/lib/portal';
import { newKey, type SandboxClient } from './sandbox';

/** Helpers for the application-side conformance tests (answers, items, files, submit). */

/** The one ETag of an application's answer set (answers, repeatable items and files). */
export const answersEtag = (appId: string, revision: number) => `"answers-${appId}-${revision}"`;

export const appPath = (appId: string) => `client-intake-applications/${appId}/`;

/** A new business with an empty funding application, so a test can write without touching others' state. */
export async function freshApplication(client: SandboxClient, name = 'Conformance Test Ltd') {
  const res = await client.post('businesses/', { body: { name }, idempotencyKey: newKey('biz') });
  expect(res.status).toBe(201);
  const created = BusinessCreateResult.parse(res.body);
  return created.application.id;
}

export async function readApplication(client: SandboxClient, appId: string) {
  const { res, data } = await client.read(ApplicationEnvelope, appPath(appId));
  return { etag: res.headers.get('etag')!, application: data.application };
}

export async function readContract(client: SandboxClient, appId: string) {
  return (await client.read(ApplicationContract, `${appPath(appId)}contract/`)).data;
}

/** Every top-level answer, walking the pages with `pageSize`. */
export async function readAllAnswers(client: SandboxClient, appId: string, pageSize = 500, sectionKey?: string) {
  const items: AnswerItem[] = [];
  let cursor: string | null = null;
  let revision = -1;
  let pages = 0;
  do {
    const q = new URLSearchParams({ page_size: String(pageSize) });
    if (sectionKey) q.set('section_key', sectionKey);
    if (cursor) q.set('cursor', cursor);
    const { data } = await client.read(AnswerPage, `${appPath(appId)}answers/?${q}`);
    expect(data.items.length).toBeLessThanOrEqual(pageSize);
    items.push(...data.items);
    revision = data.answers_revision;
    cursor = data.next_cursor;
    pages += 1;
  } while (cursor);
  return { items, revision, pages };
}

export const keyOf = (a: { block_key: string; schema_key: string; field_key: string }) =>
  `${a.block_key}|${a.schema_key}|${a.field_key}`;

/** The value of one top-level answer (null when unanswered). */
export async function answerValue(client: SandboxClient, appId: string, blockKey: string, fieldKey = 'value', schemaKey = blockKey) {
  const { items } = await readAllAnswers(client, appId);
  const found = items.find((a) => a.block_key === blockKey && a.schema_key === schemaKey && a.field_key === fieldKey);
  if (!found) throw new Error(`no answer ${blockKey}|${schemaKey}|${fieldKey}`);
  return found.value;
}

export interface Write {
  block_key: string;
  schema_key: string;
  field_key: string;
  value: unknown;
}

export const w = (key: string, value: unknown, field_key = 'value'): Write => ({ block_key: key, schema_key: key, field_key, value });

/** PATCH answers with the current revision and ETag (read first); returns the raw response. */
export async function writeAnswers(client: SandboxClient, appId: string, answers: Write[]) {
  const { revision } = await currentRevision(client, appId);
  return client.patch(`${appPath(appId)}answers/`, {
    ifMatch: answersEtag(appId, revision),
    body: { answers_revision: revision, answers },
  });
}

/** Like writeAnswers but expects success; returns the parsed mutation result. */
export async function mustWriteAnswers(client: SandboxClient, appId: string, answers: Write[]) {
  const res = await writeAnswers(client, appId, answers);
  if (res.status !== 200) throw new Error(`answer write → ${res.status}: ${res.text}`);
  return AnswersMutationResult.parse(res.body);
}

export async function currentRevision(client: SandboxClient, appId: string) {
  const { res, data } = await client.read(AnswerPage, `${appPath(appId)}answers/?page_size=1`);
  return { revision: data.answers_revision, etag: res.headers.get('etag')! };
}

export const itemsPath = (appId: string, blockKey: string) => `${appPath(appId)}repeatable-items/${blockKey}/`;

export async function listItems(client: SandboxClient, appId: string, blockKey: string, parentItemId?: string) {
  const q = parentItemId ? `?parent_item_id=${parentItemId}` : '';
  const { res, data } = await client.read(RepeatableItemPage, `${itemsPath(appId, blockKey)}${q}`);
  return { etag: res.headers.get('etag')!, page: data };
}

export async function createItem(
  client: SandboxClient,
  appId: string,
  blockKey: string,
  answers: Array<{ schema_key: string; field_key: string; value: unknown }> = [],
  parentItemId?: string,
): Promise<RepeatableItem> {
  const res = await client.post(itemsPath(appId, blockKey), {
    body: { block_key: blockKey, ...(parentItemId ? { parent_item_id: parentItemId } : {}), answers },
  });
  if (res.status !== 201) throw new Error(`item create → ${res.status}: ${res.text}`);
  return RepeatableItemMutationResult.parse(res.body).item;
}

export async function updateItem(
  client: SandboxClient,
  appId: string,
  blockKey: string,
  itemId: string,
  answers: Array<{ schema_key: string; field_key: string; value: unknown }>,
) {
  const { revision } = await currentRevision(client, appId);
  return client.patch(`${itemsPath(appId, blockKey)}${itemId}/`, {
    ifMatch: answersEtag(appId, revision),
    body: { answers_revision: revision, answers },
  });
}

export interface FileTarget {
  block_key: string;
  schema_key: string;
  field_key: string;
  item_id?: string;
}

export async function requestUpload(client: SandboxClient, appId: string, target: FileTarget) {
  const res = await client.post(`${appPath(appId)}file-uploads/`, { body: target });
  if (res.status !== 201) throw new Error(`file-uploads → ${res.status}: ${res.text}`);
  return FileUploadCredential.parse(res.body);
}

/** PUT bytes to a signed upload URL: no Authorization header, the URL's token is the credential. */
export async function putFile(
  uploadUrl: string,
  bytes: Uint8Array | string,
  { contentType = 'application/pdf', filename = 'document.pdf' }: { contentType?: string; filename?: string | null } = {},
) {
  const headers: Record<string, string> = { 'Content-Type': contentType };
  if (filename !== null) headers['Content-Disposition'] = `attachment; filename="${filename}"`;
  const body = typeof bytes === 'string' ? bytes : Buffer.from(bytes);
  const r = await fetch(uploadUrl, { method: 'PUT', headers, body });
  const text = await r.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep text */
  }
  return { status: r.status, headers: r.headers, body: parsed, text };
}

/** Requests credentials and uploads one file; returns the upload result. */
export async function uploadFile(
  client: SandboxClient,
  appId: string,
  target: FileTarget,
  content = '%PDF-1.4 test file',
  options: { contentType?: string; filename?: string } = {},
) {
  const credential = await requestUpload(client, appId, target);
  const res = await putFile(credential.upload_url, content, options);
  if (res.status !== 201) throw new Error(`upload → ${res.status}: ${res.text}`);
  return BusinessFileUploadResult.parse(res.body);
}

/* Filling an application from the contract's examples. */

type Lookup = (schemaKey: string, fieldKey: string) => AnswerValue | undefined;

const questionsOf = (contract: ApplicationContract, blockKey: string | null) =>
  contract.questions
    .filter((q) => (blockKey === null ? !q.is_repeatable : q.is_repeatable && q.block_key === blockKey))
    .sort((a, b) => a.order - b.order);

function missingRequired(questions: Question[], lookup: Lookup, value: (q: Question, fieldKey: string) => unknown) {
  const out: Array<{ question: Question; field_key: string; example: unknown }> = [];
  for (const q of questions) {
    if (!q.is_required || !isVisible(q.visibility, lookup)) continue;
    for (const f of q.fields) {
      if (!f.is_required || isAnswered(value(q, f.field_key))) continue;
      out.push({ question: q, field_key: f.field_key, example: f.example });
    }
  }
  return out;
}

const TINY_PDF = '%PDF-1.4\n% conformance test file\n';

/**
 * Answers every visible required field from its `example` (repeating while answers reveal more questions),
 * uploads a file to every visible required file question, and creates the items each group's min_items asks
 * for, filled the same way (nested groups too). Generic: nothing here knows a contract.
 */
export async function fillFromExamples(client: SandboxClient, appId: string) {
  const contract = await readContract(client, appId);
  const top = questionsOf(contract, null);

  // Top level, until nothing new appears.
  for (let round = 0; round < 10; round++) {
    const { items } = await readAllAnswers(client, appId);
    const values = new Map(items.map((a) => [`${a.schema_key}|${a.field_key}`, a.value]));
    const lookup: Lookup = (s, f) => values.get(`${s}|${f}`);
    const missing = missingRequired(top, lookup, (q, f) => values.get(`${q.schema_key}|${f}`));
    if (missing.length === 0) break;
    const writes = missing.filter((m) => m.question.answer_shape !== 'file');
    if (writes.length > 0) {
      await mustWriteAnswers(
        client,
        appId,
        writes.map((m) => ({ block_key: m.question.block_key, schema_key: m.question.schema_key, field_key: m.field_key, value: m.example })),
      );
    }
    for (const m of missing.filter((x) => x.question.answer_shape === 'file')) {
      await uploadFile(client, appId, { block_key: m.question.block_key, schema_key: m.question.schema_key, field_key: m.field_key }, TINY_PDF);
    }
  }

  const topValues = new Map((await readAllAnswers(client, appId)).items.map((a) => [`${a.schema_key}|${a.field_key}`, a.value]));

  const fillGroup = async (group: RepeatableGroup, parent: RepeatableItem | null, ancestors: RepeatableItem[]) => {
    const { page } = await listItems(client, appId, group.block_key, parent?.item_id);
    const existing = page.items.filter((i) => i.parent_item_id === (parent?.item_id ?? null));
    const questions = questionsOf(contract, group.block_key);
    const lookupFor = (item: RepeatableItem | null): Lookup => (s, f) => {
      for (const it of [item, ...ancestors]) {
        const a = it?.answers.find((x) => x.schema_key === s && x.field_key === f);
        if (a) return a.value;
      }
      return topValues.get(`${s}|${f}`);
    };
    const items = [...existing];
    for (let n = existing.length; n < (group.min_items ?? 0); n++) items.push(await createItem(client, appId, group.block_key, [], parent?.item_id));
    for (let item of items) {
      for (let round = 0; round < 10; round++) {
        const current = item;
        const missing = missingRequired(questions, lookupFor(current), (q, f) => current.answers.find((a) => a.schema_key === q.schema_key && a.field_key === f)?.value);
        if (missing.length === 0) break;
        const writes = missing.filter((m) => m.question.answer_shape !== 'file');
        if (writes.length > 0) {
          const res = await updateItem(client, appId, group.block_key, item.item_id, writes.map((m) => ({ schema_key: m.question.schema_key, field_key: m.field_key, value: m.example })));
          if (res.status !== 200) throw new Error(`item update → ${res.status}: ${res.text}`);
          item = RepeatableItemMutationResult.parse(res.body).item;
        }
        for (const m of missing.filter((x) => x.question.answer_shape === 'file')) {
          await uploadFile(client, appId, { block_key: group.block_key, schema_key: m.question.schema_key, field_key: m.field_key, item_id: item.item_id }, TINY_PDF);
        }
        if (writes.length === 0) break;
      }
      for (const child of contract.repeatable_groups.filter((g) => g.parent_block_key === group.block_key)) {
        await fillGroup(child, item, [item, ...ancestors]);
      }
    }
  };
  for (const group of contract.repeatable_groups.filter((g) => g.parent_block_key === null)) {
    await fillGroup(group, null, []);
  }
}
