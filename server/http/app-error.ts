import 'server-only';
import { codedError } from '@/lib/coded-error';
import { APP_ERROR_STATUS } from '@/lib/error-codes';

/**
 * The BFF's own refusals (their codes, statuses and meaning are listed in lib/error-codes). Upstream
 * (Portal) errors are mapped by toBrowserError in server/portal.
 */
export class AppError extends codedError(APP_ERROR_STATUS) {}
