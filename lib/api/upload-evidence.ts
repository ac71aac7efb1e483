import type { EvidenceUploadReply } from '@/lib/bff/autofill';
import { FILENAME_HEADER } from '@/lib/bff/file-transfer';
import { autofillApi } from './endpoints';
import { xhrUpload, type FileSending } from './xhr-upload';

export interface UploadEvidenceOptions extends FileSending {
  applicationId: string;
}

/** Streams one evidence document to the BFF, named in X-Filename. */
export function uploadEvidence({ applicationId, file, onProgress, signal }: UploadEvidenceOptions): Promise<EvidenceUploadReply> {
  const headers = { [FILENAME_HEADER]: encodeURIComponent(file.name) };
  return xhrUpload(autofillApi.evidence.POST, { params: { applicationId } }, { file, headers, onProgress, signal });
}
