import { FILENAME_HEADER, FileDeleteResult, FileUploadResult, type FileView } from '@/lib/bff/files';
import { apiFetch } from './api-fetch';
import { xhrUpload } from './xhr-upload';

/** The file question (and, for a repeatable question, the item) a file is attached to. */
export interface UploadTarget {
  blockKey: string;
  schemaKey: string;
  fieldKey: string;
  itemId: string | null;
}

export interface UploadFileOptions {
  /** `/api/applications/<id>`: the application the file question belongs to. */
  apiBase: string;
  target: UploadTarget;
  file: File;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

export const fileDownloadUrl = (apiBase: string, fileId: string) => `${apiBase}/files/${encodeURIComponent(fileId)}/download`;

/** Streams one file of a file question to the BFF, named in X-Filename. */
export async function uploadFile({ apiBase, target, file, onProgress, signal }: UploadFileOptions): Promise<FileView> {
  const query = new URLSearchParams({ block_key: target.blockKey, schema_key: target.schemaKey, field_key: target.fieldKey });
  if (target.itemId) query.set('item_id', target.itemId);
  const headers = { [FILENAME_HEADER]: encodeURIComponent(file.name) };
  return (await xhrUpload({ url: `${apiBase}/files?${query}`, file, headers, schema: FileUploadResult, onProgress, signal })).file;
}

/** Removes an attached file (the BFF asks for no version: a file is never edited, only added or removed). */
export async function removeFile(apiBase: string, fileId: string, signal?: AbortSignal): Promise<void> {
  await apiFetch(`${apiBase}/files/${encodeURIComponent(fileId)}`, { method: 'DELETE', schema: FileDeleteResult, signal });
}
