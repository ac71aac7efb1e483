import 'server-only';
import { z } from 'zod';
import { ID_PATTERNS } from '@/lib/portal';

export const DealParams = z.strictObject({ dealId: z.string().regex(ID_PATTERNS.deal, 'not a deal id') });
export type DealParams = z.infer<typeof DealParams>;
