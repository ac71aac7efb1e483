// The chaos runs' direct line to the Portal (the sandbox, with the full demo key): setting up, and reading the
// truth at the end, never through the app under test.
import { randomBytes } from 'node:crypto';
import { AnswerPage, BusinessCreateResult } from '@/lib/portal';
import type { RunningSandbox } from '@/server/sandbox/server';
import { PORTAL_KEY } from './stack';

export async function portalCall(sandbox: RunningSandbox, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${PORTAL_KEY}`, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : null;
}

/** A new business and its empty intake application, made directly in the Portal. */
export async function newApplication(sandbox: RunningSandbox, name: string): Promise<string> {
  const created = await portalCall(sandbox, 'POST', 'businesses/', { name }, { 'Idempotency-Key': `chaos-${randomBytes(8).toString('hex')}` });
  return BusinessCreateResult.parse(created).application.id;
}

/** The application's top-level answers as the Portal holds them: field → value. */
export async function portalAnswers(sandbox: RunningSandbox, applicationId: string): Promise<Map<string, unknown>> {
  const page = AnswerPage.parse(await portalCall(sandbox, 'GET', `client-intake-applications/${applicationId}/answers/?page_size=500`));
  return new Map(page.items.filter((a) => a.field_key === 'value').map((a) => [a.schema_key, a.value]));
}

/** Every item of a Portal list, following next_cursor. */
export async function portalList<T>(sandbox: RunningSandbox, path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = (await portalCall(sandbox, 'GET', `${path}${sep}page_size=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)) as { items: T[]; next_cursor: string | null };
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}
