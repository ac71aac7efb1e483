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
