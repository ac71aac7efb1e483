import { ERROR_STATUS, type ErrorDetail, type PortalErrorCode } from '@/lib/portal';

/** The one error type of the sandbox: thrown anywhere in a handler, rendered as the error body of DESIGN.md §5. */
export class SandboxError extends Error {
  readonly status: number;
  constructor(
    readonly code: PortalErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what = 'resource') => new SandboxError('not_found', `The ${what} does not exist.`);

export const invalidParameter = (parameter: string, message: string) =>
  new SandboxError('invalid_request', message, [{ code: 'invalid_parameter', message, parameter }]);
