import 'server-only';
import type { FileUploadQuery, FilesQuery } from '@/lib/bff/files';
import {
  AnswerFileDeleteResult,
  AnswerFilePage,
  BusinessFileUploadResult,
  FileUploadCredential,
  type AnswerFile,
} from '@/lib/portal';
import { AppError } from '@/server/http/app-error';
import { PortalError, portalDownload, portalRequest, urlBelow } from '@/server/portal';
import type { ApplicationLinks } from '@/server/application-kinds/links';
import { fileQuestionRules, streamUpload, type UploadRequest } from './upload-request';

/** What the file operations need of an application's links (every kind has them). */
export type FileLinks = Pick<ApplicationLinks, 'files' | 'fileUploads'>;

export function listFiles(links: Pick<ApplicationLinks, 'files'>, query: FilesQuery, signal?: AbortSignal) {
  return portalRequest({ url: links.files, schema: AnswerFilePage, query, signal });
}

/** Walks the pages of a (filtered) file list; `stop` ends the walk early once it has what it needs. */
async function walkFiles(
  links: Pick<ApplicationLinks, 'files'>,
  filter: Omit<FilesQuery, 'cursor' | 'page_size'>,
  signal: AbortSignal | undefined,
  stop: (f: AnswerFile) => boolean = () => false,
): Promise<AnswerFile[]> {
  const files: AnswerFile[] = [];
  let cursor: string | null = null;
  do {
    const res: Awaited<ReturnType<typeof listFiles>> = await listFiles(links, { ...filter, page_size: 100, ...(cursor ? { cursor } : {}) }, signal);
    files.push(...res.data.items);
    if (res.data.items.some(stop)) break;
    cursor = res.data.next_cursor;
  } while (cursor);
  return files;
}

/** Every file of the application, oldest first, walking all the pages. */
export function readAllFiles(links: Pick<ApplicationLinks, 'files'>, signal?: AbortSignal): Promise<AnswerFile[]> {
  return walkFiles(links, {}, signal);
}

/** A file of the application, found by listing: its signed download url stays on the server. */
export async function findFile(links: Pick<ApplicationLinks, 'files'>, fileId: string, signal?: AbortSignal): Promise<AnswerFile> {
  const found = (await walkFiles(links, {}, signal, (f) => f.id === fileId)).find((f) => f.id === fileId);
  if (!found) throw new AppError('not_found', 'That file does not exist.');
  return found;
}

export function deleteFile(links: Pick<ApplicationLinks, 'files'>, fileId: string, signal?: AbortSignal) {
  return portalRequest({ method: 'DELETE', url: urlBelow(links.files, fileId), schema: AnswerFileDeleteResult, signal });
}

/** The file's bytes from its signed download url, body unread, for streaming to the browser, with its listing. */
export async function downloadFile(links: Pick<ApplicationLinks, 'files'>, fileId: string, signal?: AbortSignal) {
  const file = await findFile(links, fileId, signal);
  return { file, res: await portalDownload(file.url, { signal }) };
}

/**
 * Uploads one file to a file question: upload credentials from file_uploads_url, then the request body
 * streamed to the signed upload_url (never buffered whole, held to the size limit as it flows), then the
 * file list read back, because the transfer reply names the file but not its id.
 */
export async function uploadFile(
  links: FileLinks,
  target: FileUploadQuery,
  upload: UploadRequest,
  signal: AbortSignal,
): Promise<{ file: AnswerFile; requestId: string | null }> {
  const credential = await portalRequest({ method: 'POST', url: links.fileUploads, schema: FileUploadCredential, body: target, signal });
  const transfer = await streamUpload(credential.data.upload_url, upload, fileQuestionRules(target), BusinessFileUploadResult, signal);
  const { filename, size } = transfer.data;
  const { block_key, schema_key, field_key, item_id } = target;
  const files = await walkFiles(links, { block_key, schema_key, field_key, ...(item_id ? { item_id } : {}) }, signal);
  // Lists run oldest first, so the last file of that name and size is the one just sent.
  const file = files.filter((f) => f.filename === filename && f.size === size).at(-1);
  if (!file) {
    throw PortalError.local('bad_upstream_reply', 'The file was uploaded, but the Portal does not list it yet. Reload the files.', {
      requestId: transfer.requestId,
    });
  }
  return { file, requestId: transfer.requestId };
}
