import { codedError } from '@/lib/coded-error';
import { ERROR_STATUS } from '@/lib/portal';

/** The one error type of the sandbox: thrown anywhere in a handler, rendered as the error body of DESIGN.md §5. */
export class SandboxError extends codedError(ERROR_STATUS) {}

export const notFound = (what = 'resource') => new SandboxError('not_found', `The ${what} does not exist.`);

export const invalidParameter = (parameter: string, message: string) =>
  new SandboxError('invalid_request', message, [{ code: 'invalid_parameter', message, parameter }]);
