import 'server-only';

export const REDACTED = '[redacted]';

/**
 * Field names whose values are credentials whatever they look like. Matched anywhere in the name so that
 * `x-api-key`, `session_token` or `webhookSecret` are caught too; idempotency keys and block keys are not.
 */
const SENSITIVE_NAME = /authorization|cookie|api[-_]?key|token|passw(or)?d|secret|credential|private[-_]?key|signature|bearer/i;

/** Header bags are dropped as a whole: listing which headers are safe is a game we would eventually lose. */
const HEADER_BAG_NAME = /^(raw)?headers$/i;

/** Credentials recognisable by their shape, for values that reach a log line under an innocent name. */
const PATTERNS: Array<[RegExp, string]> = [
  [/Bearer\s+\S+/gi, `Bearer ${REDACTED}`],
  [/pk_(test|live)_[A-Za-z0-9_]+/g, REDACTED],
  [/whsec_[A-Za-z0-9+/=_-]+/g, REDACTED],
  // A sealed session cookie (iron-session) under a name that does not say so.
  [/Fe26\.2\*[^\s;,"'<>]+/g, REDACTED],
  // An invitation link is the client's whole credential: its token is the last segment.
  [/(\/invite\/)[^/?#\s"'<>]+/g, `$1${REDACTED}`],
  // A password inside a URL (a DATABASE_URL, a proxy URL).
  [/([a-z][a-z0-9+.-]*:\/\/[^:/?#\s@"'<>]+:)[^@/?#\s"'<>]+@/gi, `$1${REDACTED}@`],
  // Signed transfer and download URLs carry their credential in the query string.
  [/([?&](?:token|access_token|api_key|apikey|key|sig|signature|secret|password)=)[^&#\s"'<>]+/gi, `$1${REDACTED}`],
];

/** Secrets shorter than this are not masked by value: masking every "a" would make logs useless. */
const MIN_SECRET_LENGTH = 8;
const MAX_DEPTH = 8;
const MAX_ARRAY_ITEMS = 100;

export const isSensitiveName = (name: string) => SENSITIVE_NAME.test(name);

export function maskString(value: string, secrets: readonly string[]): string {
  let out = value;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    out = out.split(secret).join(REDACTED);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) out = out.split(encoded).join(REDACTED);
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

function errorFields(e: Error): Record<string, unknown> {
  const withJson = e as Error & { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') {
    const json = withJson.toJSON();
    if (json && typeof json === 'object') return json as Record<string, unknown>;
  }
  const extra = e as Error & { code?: unknown; status?: unknown };
  return {
    name: e.name,
    message: e.message,
    ...(extra.code !== undefined ? { code: extra.code } : {}),
    ...(extra.status !== undefined ? { status: extra.status } : {}),
    ...(e.stack ? { stack: e.stack } : {}),
  };
}

/** A copy of `value` that is safe to serialise into a log line. */
export function redact(value: unknown, secrets: readonly string[], depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return maskString(value, secrets);
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object') return undefined; // functions and symbols say nothing useful in a log
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[depth limit]';
  if (typeof Headers !== 'undefined' && value instanceof Headers) return '[headers omitted]';
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[binary ${value.byteLength} bytes]`;
  if (value instanceof URL) return maskString(value.href, secrets);
  if (value instanceof Date) return value.toISOString();
  seen.add(value);
  try {
    if (value instanceof Error) return redact(errorFields(value), secrets, depth + 1, seen);
    if (Array.isArray(value)) {
      const items = value.slice(0, MAX_ARRAY_ITEMS).map((v) => redact(v, secrets, depth + 1, seen));
      if (value.length > MAX_ARRAY_ITEMS) items.push(`[${value.length - MAX_ARRAY_ITEMS} more]`);
      return items;
    }
    if (value instanceof Map) return redact(Object.fromEntries(value), secrets, depth, seen);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (HEADER_BAG_NAME.test(k)) out[k] = '[headers omitted]';
      else if (isSensitiveName(k)) out[k] = REDACTED;
      else out[k] = redact(v, secrets, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
