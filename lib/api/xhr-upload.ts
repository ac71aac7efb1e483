import { contentTypeOf } from '@/lib/forms/file-checks';
import { ApiError } from './api-error';
import { apiUrl, type CallInput } from './client';
import type { Endpoint, ReplyOf } from './endpoint';
import { parseJson, refusal } from './error-body';

/** One file on its way, as every upload of the browser takes it. */
export interface FileSending {
  file: File;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

export interface XhrUploadOptions extends FileSending {
  /** Headers besides Accept, Content-Type and X-CSRF (e.g. the file's name). */
  headers?: Record<string, string>;
}

const NETWORK_MESSAGE = 'The app could not be reached. Check your connection and try again.';

const abortReason = (signal: AbortSignal | undefined): unknown =>
  signal?.reason ?? new DOMException('The upload was stopped.', 'AbortError');

/**
 * Streams one file to the BFF as the raw request body. XMLHttpRequest rather than fetch, because only it
 * reports upload progress; failures are the ApiError apiFetch throws, and an abort rejects with the
 * signal's reason as fetch does. The one upload of the browser: answer files, evidence, business documents.
 */
export function xhrUpload<E extends Endpoint<'POST'>>(
  e: E,
  input: Omit<CallInput<E>, 'signal' | 'headers' | 'body'>,
  { file, headers = {}, onProgress, signal }: XhrUploadOptions,
): Promise<ReplyOf<E>> {
  const url = apiUrl(e, input as CallInput<E>);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);

    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', contentTypeOf(file) || 'application/octet-stream');
    xhr.setRequestHeader('X-CSRF', '1');
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onProgress) xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      settle();
      const json = parseJson(xhr.responseText);
      // The success body as the endpoint's reply type, as callApi returns it.
      if (xhr.status >= 200 && xhr.status < 300) resolve(json as ReplyOf<E>);
      else reject(refusal(xhr.status, json));
    };
    xhr.onerror = () => {
      settle();
      reject(new ApiError(0, 'network_error', NETWORK_MESSAGE));
    };
    xhr.onabort = () => {
      settle();
      reject(abortReason(signal));
    };
    xhr.send(file);
  });
}
