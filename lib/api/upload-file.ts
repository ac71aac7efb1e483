import { BffErrorBody } from '@/lib/bff/errors';
import { FILENAME_HEADER, FileDeleteResult, FileUploadResult, type FileView } from '@/lib/bff/files';
import { contentTypeOf } from '@/lib/forms/file-checks';
import { ApiError } from './api-error';
import { apiFetch } from './api-fetch';

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

const NETWORK_MESSAGE = 'The app could not be reached. Check your connection and try again.';

export const fileDownloadUrl = (apiBase: string, fileId: string) => `${apiBase}/files/${encodeURIComponent(fileId)}/download`;

/**
 * Streams one file to the BFF. XMLHttpRequest rather than fetch, because only it reports upload progress;
 * failures are the same ApiError apiFetch throws, and an abort rejects with the signal's reason as fetch does.
 */
export function uploadFile({ apiBase, target, file, onProgress, signal }: UploadFileOptions): Promise<FileView> {
  const query = new URLSearchParams({ block_key: target.blockKey, schema_key: target.schemaKey, field_key: target.fieldKey });
  if (target.itemId) query.set('item_id', target.itemId);

  return new Promise<FileView>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);

    xhr.open('POST', `${apiBase}/files?${query}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', contentTypeOf(file));
    xhr.setRequestHeader(FILENAME_HEADER, encodeURIComponent(file.name));
    xhr.setRequestHeader('X-CSRF', '1');

    if (onProgress) {
      xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    }
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
      reject(signal ? abortReason(signal) : new DOMException('The upload was stopped.', 'AbortError'));
    };
    xhr.send(file);
  });
}

/** Removes an attached file (the BFF asks for no version: a file is never edited, only added or removed). */
export async function removeFile(apiBase: string, fileId: string, signal?: AbortSignal): Promise<void> {
  await apiFetch(`${apiBase}/files/${encodeURIComponent(fileId)}`, { method: 'DELETE', schema: FileDeleteResult, signal });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The upload was stopped.', 'AbortError');
}

function replyOf(xhr: XMLHttpRequest): FileView {
  let json: unknown = null;
  try {
    json = xhr.responseText ? JSON.parse(xhr.responseText) : null;
  } catch {
    /* not JSON: handled below */
  }
  if (xhr.status >= 200 && xhr.status < 300) return FileUploadResult.parse(json).file;
  const parsed = BffErrorBody.safeParse(json);
  if (parsed.success) {
    const { code, message, details, request_id } = parsed.data.error;
    throw new ApiError(xhr.status, code, message, details, request_id, json);
  }
  throw new ApiError(xhr.status, 'unexpected_reply', `The app answered with HTTP ${xhr.status}.`);
}
