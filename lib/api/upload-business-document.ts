import { UploadResultView } from '@/lib/bff/businesses';
import { BffErrorBody } from '@/lib/bff/errors';
import { contentTypeOf } from '@/lib/forms/file-checks';
import { ApiError } from './api-error';

export interface BusinessDocumentUpload {
  businessId: string;
  /** A slot of the create reply's `uploads`. */
  uploadId: string;
  file: File;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

const NETWORK_MESSAGE = 'The app could not be reached. Check your connection and try again.';

/**
 * Streams one initial document of a new business into its slot: the raw bytes as the body, the name in
 * `?filename=`. XMLHttpRequest because only it reports upload progress; failures are apiFetch's ApiError.
 */
export function uploadBusinessDocument({ businessId, uploadId, file, onProgress, signal }: BusinessDocumentUpload): Promise<UploadResultView> {
  const path = `/api/businesses/${encodeURIComponent(businessId)}/uploads/${encodeURIComponent(uploadId)}`;
  return new Promise<UploadResultView>((resolve, reject) => {
    const stopped = () => signal?.reason ?? new DOMException('The upload was stopped.', 'AbortError');
    if (signal?.aborted) {
      reject(stopped());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);

    xhr.open('POST', `${path}?${new URLSearchParams({ filename: file.name })}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', contentTypeOf(file) || 'application/octet-stream');
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

function replyOf(xhr: XMLHttpRequest): UploadResultView {
  let json: unknown = null;
  try {
    json = xhr.responseText ? JSON.parse(xhr.responseText) : null;
  } catch {
    /* not JSON: handled below */
  }
  if (xhr.status >= 200 && xhr.status < 300) return UploadResultView.parse((json as { upload?: unknown } | null)?.upload);
  const parsed = BffErrorBody.safeParse(json);
  if (parsed.success) {
    const { code, message, details, request_id } = parsed.data.error;
    throw new ApiError(xhr.status, code, message, details, request_id, json);
  }
  throw new ApiError(xhr.status, 'unexpected_reply', `The app answered with HTTP ${xhr.status}.`);
}
