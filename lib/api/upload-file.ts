import { FILENAME_HEADER } from '@/lib/bff/file-transfer';
import type { FileUploadResult, FileView } from '@/lib/bff/files';
import { apiPaths, type FormApiBase, type UploadTarget } from './paths';
import { xhrUpload } from './xhr-upload';

export interface UploadFileOptions {
  /** The application (or deal application) the file question belongs to. */
  apiBase: FormApiBase;
  target: UploadTarget;
  file: File;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/** Streams one file of a file question to the BFF, named in X-Filename. */
export async function uploadFile({ apiBase, target, file, onProgress, signal }: UploadFileOptions): Promise<FileView> {
  const headers = { [FILENAME_HEADER]: encodeURIComponent(file.name) };
  const url = apiPaths.form(apiBase).files(target);
  return (await xhrUpload<FileUploadResult>({ url, file, headers, onProgress, signal })).file;
}
