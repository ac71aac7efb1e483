import { FILENAME_HEADER } from '@/lib/bff/file-transfer';
import type { UploadResultView } from '@/lib/bff/businesses';
import { businessUploadApi } from './endpoints';
import { xhrUpload, type FileSending } from './xhr-upload';

export interface BusinessDocumentUpload extends FileSending {
  businessId: string;
  /** A slot of the create reply's `uploads`. */
  uploadId: string;
}

/** Streams one initial document of a new business into its slot, the name in `?filename=`. */
export async function uploadBusinessDocument({ businessId, uploadId, file, onProgress, signal }: BusinessDocumentUpload): Promise<UploadResultView> {
  // The route reads the name from the query; X-Filename (the same name) is what lets an upload pass
  // proxy.ts unbuffered, so the file streams to the Portal as it is sent.
  const headers = { [FILENAME_HEADER]: encodeURIComponent(file.name) };
  const to = { params: { businessId, uploadId }, query: { filename: file.name } };
  return (await xhrUpload(businessUploadApi.POST, to, { file, headers, onProgress, signal })).upload;
}
