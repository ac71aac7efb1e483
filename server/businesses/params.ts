import 'server-only';
import { z } from 'zod';
import { ID_PATTERNS } from '@/lib/portal';

/** Path parameters of the business routes, each checked against its Portal id pattern. */
export const BusinessParams = z.strictObject({ businessId: z.string().regex(ID_PATTERNS.business, 'not a business id') });
export type BusinessParams = z.infer<typeof BusinessParams>;

export const UploadParams = BusinessParams.extend({
  uploadId: z.string().max(255).regex(ID_PATTERNS.fileUpload, 'not an upload id'),
});
export type UploadParams = z.infer<typeof UploadParams>;
