import 'server-only';
import type { FileUploadQuery, FilesQuery } from '@/lib/bff/files';
import {
  AnswerFileDeleteResult,
  AnswerFilePage,
  BusinessFileUploadResult,
  FileUploadCredential,
  type AnswerFile,
} from '@/lib/portal';
import { currentRequest } from '@/server/context/request-context';
import { AppError } from '@/server/http/app-error';
import { PortalError, portalDownload, portalRequest, readFilteredPage, urlBelow } from '@/server/portal';
import type { ApplicationLinks } from './kind-links';
import { fileQuestionRules, streamUpload, type UploadRequest } from './upload-request';

/** What the file operations need of an application's links (every kind has them). */
export type FileLinks = Pick<ApplicationLinks, 'files' | 'fileUploads'>;

/** A page of the files; a filter the Portal does not take is applied here (readFilteredPage). */
export function listFiles(links: Pick<ApplicationLinks, 'files'>, query: FilesQuery) {
  return readFilteredPage({ url: links.files, schema: AnswerFilePage, query });
}

/** Walks the pages of a (filtered) file list; `stop` ends the walk early once it has what it needs. */
async function walkFiles(
  links: Pick<ApplicationLinks, 'files'>,
  filter: Omit<FilesQuery, 'cursor' | 'page_size'>,
  stop: (f: AnswerFile) => boolean = () => false,
): Promise<AnswerFile[]> {
  const files: AnswerFile[] = [];
  let cursor: string | null = null;
  do {
    const res: Awaited<ReturnType<typeof listFiles>> = await listFiles(links, { ...filter, page_size: 100, ...(cursor ? { cursor } : {}) });
    files.push(...res.data.items);
    if (res.data.items.some(stop)) break;
    cursor = res.data.next_cursor;
  } while (cursor);
  return files;
}

/** Every file of the application, oldest first, walking all the pages. */
export function readAllFiles(links: Pick<ApplicationLinks, 'files'>): Promise<AnswerFile[]> {
  return walkFiles(links, {});
}

/** A file of the application, found by listing: its signed download url stays on the server. */
export async function findFile(links: Pick<ApplicationLinks, 'files'>, fileId: string): Promise<AnswerFile> {
  const found = (await walkFiles(links, {}, (f) => f.id === fileId)).find((f) => f.id === fileId);
  if (!found) throw new AppError('not_found', 'That file does not exist.');
  return found;
}

export function deleteFile(links: Pick<ApplicationLinks, 'files'>, fileId: string) {
  return portalRequest({ method: 'DELETE', url: urlBelow(links.files, fileId), schema: AnswerFileDeleteResult });
}

/** The file's bytes from its signed download url, body unread, for streaming to the browser, with its listing. */
export async function downloadFile(links: Pick<ApplicationLinks, 'files'>, fileId: string) {
  const file = await findFile(links, fileId);
  return { file, res: await portalDownload(file.url) };
}

// The transfer's reply names the file but not its id: the listing may take a moment to show it.
const READ_BACK_ATTEMPTS = 3;
const READ_BACK_PAUSE_MS = 300;
const pause = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
/** Whether the browser's request was given up (its context's signal). */
const aborted = () => currentRequest()?.signal.aborted ?? false;

/** A file of the question that was not there before the upload, with this name and size (the last one, lists run oldest first). */
async function readBack(
  links: FileLinks,
  question: Omit<FilesQuery, 'cursor' | 'page_size'>,
  before: ReadonlySet<string>,
  sent: { filename: string; size: number },
): Promise<AnswerFile | null> {
  for (let attempt = 1; ; attempt++) {
    const files = await walkFiles(links, question);
    const file = files.filter((f) => !before.has(f.id) && f.filename === sent.filename && f.size === sent.size).at(-1);
    if (file || attempt >= READ_BACK_ATTEMPTS || aborted()) return file ?? null;
    await pause(READ_BACK_PAUSE_MS, currentRequest()?.signal);
  }
}

/**
 * Uploads one file to a file question: upload credentials from file_uploads_url, then the request body
 * streamed to the signed upload_url (never buffered whole, held to the size limit as it flows), then the
 * file list read back, because the transfer reply names the file but not its id. The question's files are
 * listed first, so the new one is told from an older file of the same name and size; and a transfer that
 * failed without a refusal (a lost reply, a timeout) is read back the same way before it is called failed:
 * a file the Portal stored is never reported as not uploaded (a retry would store it twice).
 */
export async function uploadFile(
  links: FileLinks,
  target: FileUploadQuery,
  upload: UploadRequest,
): Promise<{ file: AnswerFile; requestId: string | null }> {
  const { block_key, schema_key, field_key, item_id } = target;
  const question = { block_key, schema_key, field_key, ...(item_id ? { item_id } : {}) };
  const [credential, existing] = await Promise.all([
    portalRequest({ method: 'POST', url: links.fileUploads, schema: FileUploadCredential, body: target }),
    walkFiles(links, question),
  ]);
  const before = new Set(existing.map((f) => f.id));
  const sent = { bytes: 0 };
  let transfer;
  try {
    transfer = await streamUpload(credential.data.upload_url, upload, fileQuestionRules(target), BusinessFileUploadResult, sent);
  } catch (e) {
    // Refused here (type, size) or by the Portal with a 4xx: nothing was stored. Anything else may have been.
    const refused = !(e instanceof PortalError) || (e.status >= 400 && e.status < 500 && e.status !== 408);
    if (refused || aborted()) throw e;
    const stored = await readBack(links, question, before, { filename: upload.filename, size: upload.size ?? sent.bytes }).catch(() => null);
    if (stored) return { file: stored, requestId: e.requestId };
    throw e;
  }
  const file = await readBack(links, question, before, transfer.data);
  if (!file) {
    throw PortalError.local('bad_upstream_reply', 'The file was uploaded, but the Portal does not list it yet. Reload the files.', {
      requestId: transfer.requestId,
    });
  }
  return { file, requestId: transfer.requestId };
}
