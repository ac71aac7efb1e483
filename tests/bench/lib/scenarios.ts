import { randomUUID } from 'node:crypto';
import { AnswerPage, ApplicationContract, BusinessCreateResult } from '@/lib/portal';
import type { LoadSpec } from './load';

/** A JSON call used to prepare a benchmark (not measured). */
export async function callJson(url: string, init: RequestInit & { headers: Record<string, string> }) {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${res.status}: ${text}`);
  return { body: JSON.parse(text) as unknown, etag: res.headers.get('etag') ?? '' };
}

export interface WriteTarget {
  /** The application written to (the BFF's routes are addressed by it). */
  applicationId: string;
  answersUrl: string;
  etag: string;
  revision: number;
  key: { block_key: string; schema_key: string; field_key: string };
  n: number;
}

/**
 * Creates one fresh application per connection, so concurrent writers never race on one revision, and
 * picks a plain text field of the contract to write.
 */
export async function prepareWriteTargets(baseUrl: string, apiKey: string, count: number): Promise<WriteTarget[]> {
  const auth = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
  const targets: WriteTarget[] = [];
  for (let i = 0; i < count; i++) {
    const created = BusinessCreateResult.parse(
      (
        await callJson(`${baseUrl}businesses/`, {
          method: 'POST',
          // A random key: two preparations at the same millisecond must not get one application replayed.
          headers: { ...auth, 'Idempotency-Key': `bench-${randomUUID()}` },
          body: JSON.stringify({ name: `Bench writer ${i}` }),
        })
      ).body,
    );
    const contract = ApplicationContract.parse((await callJson(`${created.application.url}contract/`, { headers: auth })).body);
    const q = contract.questions.find((q) => {
      const s = q.fields[0]?.value_schema;
      return !q.is_repeatable && q.answer_shape === 'field' && q.fields.length === 1 && s?.type === 'string' && !s.format && !s.pattern && !s.enum;
    });
    if (!q) throw new Error('the contract has no plain text question to write');
    const page = await callJson(contract.operations.read_answers_url, { headers: auth });
    targets.push({
      applicationId: created.application.id,
      answersUrl: contract.operations.update_answers_url,
      etag: page.etag,
      revision: AnswerPage.parse(page.body).answers_revision,
      key: { block_key: q.block_key, schema_key: q.schema_key, field_key: q.fields[0]!.field_key },
      n: 0,
    });
  }
  return targets;
}

/** How answer writes reach the application: where, with which headers, and what a reply carries forward. */
interface AnswerWriteRoute {
  url(t: WriteTarget): string;
  headers: Record<string, string>;
  carry(t: WriteTarget, headers: Record<string, string | string[] | undefined>, body: string): void;
}

/** Answer writes: each worker writes its own application and carries answers_revision and ETag forward. */
function answerWriteLoad(name: string, targets: WriteTarget[], seconds: number, route: AnswerWriteRoute): LoadSpec {
  return {
    name,
    connections: targets.length,
    durationSeconds: seconds,
    next: (w) => {
      const t = targets[w]!;
      t.n += 1;
      return {
        method: 'PATCH',
        url: route.url(t),
        headers: { ...route.headers, 'Content-Type': 'application/json', 'If-Match': t.etag },
        body: JSON.stringify({ answers_revision: t.revision, answers: [{ ...t.key, value: `Bench value ${t.n}` }] }),
      };
    },
    onReply: (w, status, h, body) => {
      if (status === 200) route.carry(targets[w]!, h, body);
    },
  };
}

/** Answer writes to the Portal: the revision from the reply's body, the ETag from its header. */
export const writeLoad = (name: string, targets: WriteTarget[], headers: Record<string, string>, seconds: number): LoadSpec =>
  answerWriteLoad(name, targets, seconds, {
    url: (t) => t.answersUrl,
    headers,
    carry: (t, h, body) => {
      t.revision = (JSON.parse(body) as { answers_revision: number }).answers_revision;
      if (typeof h.etag === 'string') t.etag = h.etag;
    },
  });

/** Reads of one URL by every worker. */
export const readLoad = (name: string, url: string, headers: Record<string, string>, connections: number, seconds: number): LoadSpec => ({
  name,
  connections,
  durationSeconds: seconds,
  next: () => ({ method: 'GET', url, headers }),
});

/**
 * The same answer writes through the BFF: PATCH /api/applications/<id>/answers as the browser sends it
 * (session cookie, X-CSRF, Origin, If-Match), carrying `answers_revision` and `etag` forward from the
 * BFF's JSON reply.
 */
export const bffWriteLoad = (name: string, targets: WriteTarget[], bffOrigin: string, cookie: string, seconds: number): LoadSpec =>
  answerWriteLoad(name, targets, seconds, {
    url: (t) => `${bffOrigin}/api/applications/${t.applicationId}/answers`,
    headers: { Cookie: cookie, 'X-CSRF': '1', Origin: bffOrigin },
    carry: (t, _h, body) => {
      const reply = JSON.parse(body) as { answers_revision: number; etag: string };
      t.revision = reply.answers_revision;
      t.etag = reply.etag;
    },
  });

/** The same answer writes to the floor route (/bench/floor): same method, headers and body, nothing carried. */
export const floorWriteLoad = (name: string, targets: WriteTarget[], bffOrigin: string, cookie: string, seconds: number): LoadSpec =>
  answerWriteLoad(name, targets, seconds, {
    url: () => `${bffOrigin}/bench/floor`,
    headers: { Cookie: cookie, 'X-CSRF': '1', Origin: bffOrigin },
    carry: () => undefined,
  });
