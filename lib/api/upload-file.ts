import { FILENAME_HEADER } from '@/lib/bff/file-transfer';
import type { FileView } from '@/lib/bff/files';
import { formApi } from './endpoints';
import type { FormBase, UploadTarget } from './form-base';
import { xhrUpload, type FileSending } from './xhr-upload';

export interface UploadFileOptions extends FileSending {
  /** The application (or deal application) the file question belongs to. */
  apiBase: FormBase;
  target: UploadTarget;
}

/** Streams one file of a file question to the BFF, named in X-Filename. */
export async function uploadFile({ apiBase, target, file, onProgress, signal }: UploadFileOptions): Promise<FileView> {
  const headers = { [FILENAME_HEADER]: encodeURIComponent(file.name) };
  const query = { block_key: target.blockKey, schema_key: target.schemaKey, field_key: target.fieldKey, item_id: target.itemId };
  return (await xhrUpload(formApi.files.POST, { params: { form: apiBase }, query }, { file, headers, onProgress, signal })).file;
}
