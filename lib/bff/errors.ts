import { z } from 'zod';
import { ERROR_CODES } from '@/lib/error-codes';
import { ErrorDetail } from '@/lib/portal';

/** The error body every BFF route answers with (DESIGN.md §3); its code is one of lib/error-codes. */
export const BffErrorBody = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    request_id: z.string().nullable(),
    details: z.array(ErrorDetail),
  }),
});
export type BffErrorBody = z.infer<typeof BffErrorBody>;
