import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { bffStack } from './bff';

export interface UpstreamCall {
  method: string;
  path: string;
  status: number | null;
}

/**
 * The upstream API calls the BFF logged on behalf of requests whose path contains `fragment` (an object's id
 * with its slashes, say): the workspace's own refreshes after webhooks are logged as background work and left out.
 */
export function upstreamCalls(fragment: string): UpstreamCall[] {
  return readFileSync(bffStack().logFile, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"msg":"portal request"') && l.includes(fragment))
    .map((l) => JSON.parse(l) as UpstreamCall & { kind: string; background?: boolean })
    .filter((c) => c.kind === 'api' && !c.background)
    .map(({ method, path, status }) => ({ method, path, status }));
}

/**
 * The calls logged since `before` calls, once the log has stopped growing: the server writes it asynchronously,
 * so a count read straight after a reply may miss that reply's own lines.
 */
export async function callsSince(fragment: string, before: number): Promise<UpstreamCall[]> {
  let last = -1;
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const now = upstreamCalls(fragment);
    if (now.length === last) return now.slice(before);
    last = now.length;
  }
  throw new Error('the BFF log did not settle');
}

/**
 * Makes the server log a line of its own after everything a test did, and waits for it: what the server
 * logged before is then in the file, so a check that something is not in the log has seen the log up to now.
 * The line is the upstream call of a staff read of an application no one has (a 404 from the Portal).
 */
export async function logCaughtUp(staff: { get(path: string): Promise<{ status: number }> }) {
  const id = `ciappl_logmark${randomBytes(6).toString('hex')}`;
  const r = await staff.get(`/api/applications/${id}`);
  if (r.status !== 404) throw new Error(`the log mark read answered ${r.status}, not 404`);
  for (let i = 0; i < 200; i++) {
    if (upstreamCalls(`/${id}/`).length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the log mark never reached the log');
}
