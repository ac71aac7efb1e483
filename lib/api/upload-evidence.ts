import { EvidenceUploadReply } from '@/lib/bff/autofill';
import { FILENAME_HEADER } from '@/lib/bff/files';
import { xhrUpload } from './xhr-upload';

export interface UploadEvidenceOptions {
  /** `/api/applications/<id>/autofill`. */
  base: string;
  file: File;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/** Streams one evidence document to the BFF, named in X-Filename. */
export function uploadEvidence({ base, file, onProgress, signal }: UploadEvidenceOptions): Promise<EvidenceUploadReply> {
  const headers = { [FILENAME_HEADER]: encodeURIComponent(file.name) };
  return xhrUpload({ url: `${base}/preparation/files`, file, headers, schema: EvidenceUploadReply, onProgress, signal });
}
