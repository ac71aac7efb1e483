import 'server-only';

/** SQLSTATE of the error both drivers raise for a violated unique constraint or index. */
const UNIQUE_VIOLATION = '23505';

function sqlState(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  const code = (err as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

export function isUniqueViolation(err: unknown): boolean {
  return sqlState(err) === UNIQUE_VIOLATION;
}

export class TooManyRowsError extends Error {
  constructor(count: number) {
    super(`expected at most one row, got ${count}`);
    this.name = 'TooManyRowsError';
  }
}
