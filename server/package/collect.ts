import 'server-only';
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AnswerFile } from '@/lib/portal';
import { readFormSnapshot, type FormSnapshot } from '@/server/applications/form-snapshot';
import { readAllFiles } from '@/server/applications/files';
import { intakeApplication } from '@/server/applications/intake-application';
import { isPortalError, portalDownload } from '@/server/portal';

/**
 * What a funder's package is made of, read through the application wing's own reads (the Portal client
 * retries a 429 or a 5xx of a read; when it still fails the caller answers an error, before any byte of a
 * PDF or ZIP is sent): the form snapshot (application, contract, answers, items, files) and each file's
 * download link.
 */
export interface Collected {
  readonly snapshot: FormSnapshot;
  /** The application's files as the Portal lists them, with their download URLs (server side only). */
  readonly files: readonly AnswerFile[];
}

export async function collectApplication(id: string): Promise<Collected> {
  const snapshot = await readFormSnapshot(intakeApplication, id);
  const links = await intakeApplication.links.get(id);
  return { snapshot, files: await readAllFiles(links) };
}

/** A document as the package has it: its SHA-256, or why it could not be read. */
export type DocumentRead = { sha256: string; problem: null } | { sha256: null; problem: string };

const DOWNLOAD_ATTEMPTS = 3;
const retryable = (e: unknown) => !isPortalError(e) || e.status === 429 || e.status >= 500;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The file's bytes from the Portal's storage, retried (like a read) while nothing of it has been used: a
 * 429, a 5xx or a dropped connection. A file the Portal no longer has is reported, not thrown.
 */
export async function openDocument(file: AnswerFile): Promise<{ body: Readable } | { problem: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await portalDownload(file.url);
      if (!res.body) return { problem: 'The Portal sent no content for this file.' };
      return { body: Readable.fromWeb(res.body as import('node:stream/web').ReadableStream) };
    } catch (e) {
      if (isPortalError(e) && (e.status === 404 || e.status === 410)) return { problem: 'The Portal no longer has this file (deleted or expired).' };
      if (attempt >= DOWNLOAD_ATTEMPTS || !retryable(e)) throw e;
      const after = isPortalError(e) && e.retryAfter !== undefined ? Math.min(e.retryAfter * 1000, 5_000) : 0;
      await wait(Math.max(after, 200 * 2 ** attempt));
    }
  }
}

/** A pass-through that hashes what flows through it; `digest()` once it has ended. */
export function hashingStream() {
  const hash = createHash('sha256');
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

const HASHES_AT_ONCE = 4;

/** The SHA-256 of one document, read once and kept nowhere. */
async function hashDocument(file: AnswerFile): Promise<DocumentRead> {
  const opened = await openDocument(file);
  if ('problem' in opened) return { sha256: null, problem: opened.problem };
  const hash = createHash('sha256');
  await pipeline(opened.body, async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) hash.update(chunk);
  });
  return { sha256: hash.digest('hex'), problem: null };
}

/** Reads each document once to hash it, a few at a time (the PDF on its own lists the hashes; the ZIP hashes while it streams). */
export async function hashDocuments(files: readonly AnswerFile[]): Promise<Map<string, DocumentRead>> {
  const reads = new Map<string, DocumentRead>();
  for (let i = 0; i < files.length; i += HASHES_AT_ONCE) {
    const batch = files.slice(i, i + HASHES_AT_ONCE);
    const done = await Promise.all(batch.map(hashDocument));
    batch.forEach((file, j) => reads.set(file.id, done[j]!));
  }
  return reads;
}
