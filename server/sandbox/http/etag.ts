import { createHash } from 'node:crypto';
import { SandboxError } from './errors';

/** Version-based ETags: cheap to compute and to compare on every write. */
export const versionEtag = (...parts: Array<string | number>) => `"${parts.join('-')}"`;

/**
 * A contract's ETag names its contract_version only (DESIGN §5), so a client keeps a contract and revalidates
 * it to a 304 for as long as the version holds. Weak: the body also carries answers_revision, which moves
 * with every answer write without changing what the contract asks.
 */
export const contractEtag = (app: { id: string; contract_version: string }) => `W/${versionEtag('contract', app.id, app.contract_version)}`;

/** Content ETag for collection reads whose version is not a single counter. */
export const contentEtag = (body: string) => `"c${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

const parseList = (header: string) =>
  header
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s.startsWith('W/') ? s.slice(2) : s));

/**
 * Checks If-Match against the resource's current ETag: missing and required gives 428, stale gives 412.
 * Weak validators compare as strong ones: the sandbox's ETags are exact versions either way.
 */
export function checkIfMatch(header: string | undefined, current: string, required: boolean) {
  if (header === undefined || header.trim() === '') {
    if (required) {
      throw new SandboxError('precondition_required', 'This write requires an If-Match header with the current ETag.', [
        { code: 'missing_header', message: 'Send If-Match with the ETag from your last read.', parameter: 'If-Match' },
      ]);
    }
    return;
  }
  const tags = parseList(header);
  if (tags.includes('*') || tags.includes(current)) return;
  throw new SandboxError(
    'precondition_failed',
    'The resource changed since you read it: re-read it, reconcile and retry with the new ETag.',
    [{ code: 'stale_etag', message: `If-Match ${header} does not match the current version.`, parameter: 'If-Match' }],
  );
}
