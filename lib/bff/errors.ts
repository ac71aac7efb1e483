import { z } from 'zod';
import { ErrorDetail } from '@/lib/portal';

/** The error body every BFF route answers with (DESIGN.md §3). */
export const BffErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    request_id: z.string().nullable(),
    details: z.array(ErrorDetail),
  }),
});
export type BffErrorBody = z.infer<typeof BffErrorBody>;
