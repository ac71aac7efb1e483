import { z } from 'zod';
import { AnswerFileId, AnswerFilesQuery, FileUploadRequestBody, RepeatableItemId } from '@/lib/portal';

/**
 * Files of file questions as the browser sends and gets them: never the Portal's download or upload URL
 * (downloads are proxied, uploads streamed through the BFF).
 */

// The upload limits and header, kept in a module without zod for the browser's upload code.
export { ALLOWED_UPLOAD_TYPES, FILENAME_HEADER, MAX_UPLOAD_BYTES } from './file-transfer';

/** Which file question (and, for a repeatable question, which item) an upload belongs to: as the Portal asks it. */
export const FileUploadQuery = FileUploadRequestBody;
export type FileUploadQuery = z.infer<typeof FileUploadQuery>;

/** The Portal's file listing query, with a bound on the cursor the browser hands back. */
export const FilesQuery = FileUploadRequestBody.partial().extend({
  cursor: z.string().min(1).max(2000).optional(),
  page_size: AnswerFilesQuery.shape.page_size,
});
export type FilesQuery = z.infer<typeof FilesQuery>;

export const FileView = z.object({
  id: AnswerFileId,
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int(),
  created_at: z.string(),
  block_key: z.string(),
  schema_key: z.string(),
  field_key: z.string(),
  item_id: RepeatableItemId.nullable(),
});
export type FileView = z.infer<typeof FileView>;

export const FilesPageView = z.object({ items: z.array(FileView), next_cursor: z.string().nullable() });
export type FilesPageView = z.infer<typeof FilesPageView>;

export const FileUploadResult = z.object({ file: FileView });
export type FileUploadResult = z.infer<typeof FileUploadResult>;

export const FileDeleteResult = z.object({ id: AnswerFileId, deleted: z.literal(true) });
export type FileDeleteResult = z.infer<typeof FileDeleteResult>;
