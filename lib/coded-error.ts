import type { ErrorDetail } from './portal/common';

/**
 * An error class for one table of codes and their HTTP statuses, rendered as the error body of DESIGN.md
 * §5: a code of the table, a message, per-field details and any headers of its own (Retry-After).
 */
export function codedError<Table extends Record<string, number>>(statusOf: Table) {
  return class extends Error {
    readonly status: number;
    constructor(
      readonly code: keyof Table & string,
      message: string,
      readonly details: ErrorDetail[] = [],
      readonly headers: Record<string, string> = {},
    ) {
      super(message);
      this.status = statusOf[code]!;
    }
  };
}
