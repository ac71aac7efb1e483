import { BffErrorBody } from '@/lib/bff/errors';
import { EvidenceUploadReply } from '@/lib/bff/autofill';
import { FILENAME_HEADER } from '@/lib/bff/files';
import { contentTypeOf } from '@/lib/forms/file-checks';
import { ApiError } from './api-error';

export interface UploadEvidenceOptions {
  /** `/api/applications/<id>/autofill`. */
  base: string;
  file: File;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

const NETWORK_MESSAGE = 'The app could not be reached. Check your connection and try again.';

/**
 * Streams one evidence document to the BFF. XMLHttpRequest rather than fetch, because only it reports
 * upload progress; failures are the ApiError apiFetch throws, and an abort rejects like fetch does.
 */
export function uploadEvidence({ base, file, onProgress, signal }: UploadEvidenceOptions): Promise<EvidenceUploadReply> {
  return new Promise<EvidenceUploadReply>((resolve, reject) => {
    const stopped = () => signal?.reason ?? new DOMException('The upload was stopped.', 'AbortError');
    if (signal?.aborted) {
      reject(stopped());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);

    xhr.open('POST', `${base}/preparation/files`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', contentTypeOf(file));
    xhr.setRequestHeader(FILENAME_HEADER, encodeURIComponent(file.name));
    xhr.setRequestHeader('X-CSRF', '1');
    if (onProgress) xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      settle();
      try {
        resolve(replyOf(xhr));
      } catch (e) {
        reject(e);
      }
    };
    xhr.onerror = () => {
      settle();
      reject(new ApiError(0, 'network_error', NETWORK_MESSAGE));
    };
    xhr.onabort = () => {
      settle();
      reject(stopped());
    };
    xhr.send(file);
  });
}

function replyOf(xhr: XMLHttpRequest): EvidenceUploadReply {
  let json: unknown = null;
  try {
    json = xhr.responseText ? JSON.parse(xhr.responseText) : null;
  } catch {
    /* not JSON: handled below */
  }
  if (xhr.status >= 200 && xhr.status < 300) return EvidenceUploadReply.parse(json);
  const parsed = BffErrorBody.safeParse(json);
  if (parsed.success) {
    const { code, message, details, request_id } = parsed.data.error;
    throw new ApiError(xhr.status, code, message, details, request_id, json);
  }
  throw new ApiError(xhr.status, 'unexpected_reply', `The app answered with HTTP ${xhr.status}.`);
}
