import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AnswerPage, AnswersMutationResult, BusinessCreateResult, RepeatableItemDeleteResult, RepeatableItemMutationResult, RepeatableItemPage } from '@/lib/portal';
import { resetEnvForTests } from '@/server/env';
import { PortalError, newIdempotencyKey, portalRequest, routes } from '@/server/portal';
import { startSandbox, type RunningSandbox } from '@/server/sandbox/server';
import { answersEtag } from './support/applications';
import { loopbackServer } from './support/loopback';
import { KEYS } from './support/sandbox';
import { setSandboxFaults } from './support/sandbox-faults';

/*
 * Writes guarded by If-Match are repeated after a 5xx or a lost connection, like reads.
 * They are safe to repeat because they apply at most once: a repeat of a write that did land meets a moved
 * ETag and answers 412. Both halves are shown against the real sandbox, its faults switched on.
 */

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: null, controls: true });
  resetEnvForTests({ PORTAL_BASE_URL: sandbox.baseUrl, PORTAL_API_KEY: KEYS.full, SESSION_SECRET: 'portal-write-retries-session-secret-0123' });
});

afterAll(async () => {
  resetEnvForTests();
  await sandbox?.close();
});

const faults = (body: Record<string, unknown> | null) => setSandboxFaults(sandbox.origin, body);

afterEach(async () => {
  await faults(null);
});

async function freshApplication() {
  const res = await portalRequest({
    method: 'POST',
    path: routes.businesses(),
    body: { name: 'Write Retries Ltd' },
    idempotencyKey: newIdempotencyKey(),
    schema: BusinessCreateResult,
  });
  return res.data.application.id;
}

const legalName = (value: string) => ({ block_key: 'legal_name', schema_key: 'legal_name', field_key: 'value', value });
const answersUrl = (appId: string) => `${sandbox.baseUrl}client-intake-applications/${appId}/answers/`;
const itemsUrl = (appId: string) => `${sandbox.baseUrl}client-intake-applications/${appId}/repeatable-items/owners/`;

async function revisionOf(appId: string) {
  return (await portalRequest({ url: answersUrl(appId), query: { page_size: 500 }, schema: AnswerPage })).data;
}

describe('writes guarded by If-Match under upstream faults', () => {
  it('lands every answer write exactly once through 5xx, 429 and dropped connections', async () => {
    const appId = await freshApplication();
    const start = (await revisionOf(appId)).answers_revision;
    // Seeded, and the writes go one after another: every run meets the same faults.
    await faults({ rate_5xx: 0.2, rate_drop: 0.15, rate_429: 0.1, retry_after_seconds: 0, paths: [`client-intake-applications/${appId}/answers/`], seed: 11 });
    const writes = 20;
    let attempts = 0;
    let revision = start;
    for (let i = 0; i < writes; i++) {
      const res = await portalRequest({
        method: 'PATCH',
        url: answersUrl(appId),
        ifMatch: answersEtag(appId, revision),
        body: { answers_revision: revision, answers: [legalName(`Write ${i}`)] },
        schema: AnswersMutationResult,
      });
      attempts += res.attempts;
      expect(res.data.answers_revision).toBe(revision + 1);
      revision = res.data.answers_revision;
    }
    await faults(null);
    const after = await revisionOf(appId);
    // Applied once each: the revision moved by exactly the number of writes, and the last one is what is there.
    expect(after.answers_revision).toBe(start + writes);
    expect(after.items.find((a) => a.schema_key === 'legal_name')?.value).toBe(`Write ${writes - 1}`);
    // The faults did strike, and were absorbed by repeats rather than surfaced.
    expect(attempts).toBeGreaterThan(writes);
  });

  it('repeats item creates, updates and deletes sent with If-Match, each applied once', async () => {
    const appId = await freshApplication();
    await faults({ rate_5xx: 0.2, rate_drop: 0.15, paths: [`client-intake-applications/${appId}/repeatable-items/`], seed: 4 });
    let revision = (await revisionOf(appId)).answers_revision;
    let attempts = 0;
    const create = async (name: string) => {
      const created = await portalRequest({
        method: 'POST',
        url: itemsUrl(appId),
        ifMatch: answersEtag(appId, revision),
        body: { block_key: 'owners', answers: [{ schema_key: 'owner_full_name', field_key: 'value', value: name }] },
        schema: RepeatableItemMutationResult,
      });
      attempts += created.attempts;
      revision = created.data.answers_revision;
      return `${itemsUrl(appId)}${created.data.item.item_id}/`;
    };
    const first = await create('Ada');
    const second = await create('Grace');
    for (const name of ['Ada Lovelace', 'Ada King']) {
      const updated = await portalRequest({
        method: 'PATCH',
        url: first,
        ifMatch: answersEtag(appId, revision),
        body: { answers_revision: revision, answers: [{ schema_key: 'owner_full_name', field_key: 'value', value: name }] },
        schema: RepeatableItemMutationResult,
      });
      attempts += updated.attempts;
      expect(updated.data.item.answers.find((a) => a.schema_key === 'owner_full_name')?.value).toBe(name);
      revision = updated.data.answers_revision;
    }
    // The group needs one owner at least, so the second is the one removed.
    const deleted = await portalRequest({ method: 'DELETE', url: second, ifMatch: answersEtag(appId, revision), schema: RepeatableItemDeleteResult });
    attempts += deleted.attempts;
    await faults(null);
    const items = await portalRequest({ url: itemsUrl(appId), schema: RepeatableItemPage });
    // Two creates, one delete, all repeated through faults: exactly one item left, with the last name.
    expect(items.data.items.map((i) => i.answers.find((a) => a.schema_key === 'owner_full_name')?.value)).toEqual(['Ada King']);
    expect(items.data.answers_revision).toBe(deleted.data.answers_revision);
    expect(attempts).toBeGreaterThan(5);
  });
});

describe('a write that landed but whose reply was lost', () => {
  it('is repeated, meets the moved ETag and answers 412: never applied twice', async () => {
    const appId = await freshApplication();
    const { answers_revision: revision } = await revisionOf(appId);
    // A hop in front of the sandbox that forwards the first PATCH, then drops the connection instead of replying.
    let patches = 0;
    const hop = await loopbackServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
        void fetch(`${sandbox.origin}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined }).then(async (up) => {
          const text = await up.text();
          if (req.method === 'PATCH' && ++patches === 1) return req.socket.destroy();
          res.writeHead(up.status, Object.fromEntries(up.headers));
          res.end(text);
        });
      });
    });
    try {
      resetEnvForTests({ PORTAL_BASE_URL: hop.baseUrl, PORTAL_API_KEY: KEYS.full, SESSION_SECRET: 'portal-write-retries-session-secret-0123' });
      const error = await portalRequest({
        method: 'PATCH',
        url: `${hop.baseUrl}client-intake-applications/${appId}/answers/`,
        ifMatch: answersEtag(appId, revision),
        body: { answers_revision: revision, answers: [legalName('Landed once')] },
        schema: AnswersMutationResult,
      }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PortalError);
      expect(error).toMatchObject({ status: 412, code: 'precondition_failed' });
      expect(patches).toBe(2);
    } finally {
      resetEnvForTests({ PORTAL_BASE_URL: sandbox.baseUrl, PORTAL_API_KEY: KEYS.full, SESSION_SECRET: 'portal-write-retries-session-secret-0123' });
      await hop.close();
    }
    const after = await revisionOf(appId);
    expect(after.answers_revision).toBe(revision + 1);
    expect(after.items.find((a) => a.schema_key === 'legal_name')?.value).toBe('Landed once');
  });
});
