import 'server-only';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { documentEntryName, uniqueNames } from '@/lib/exports/entry-names';
import { businessNameOf, packageDocument } from './application-document';
import { renderApplicationPdf } from './application-pdf';
import { hashingStream, openDocument, type Collected, type DocumentRead } from './collect';

/**
 * The funder's package: one ZIP, streamed, with every document of the application and the PDF. The
 * documents go first, one at a time, hashed as they pass (nothing is held whole in memory); the PDF comes
 * last because it lists those hashes. A document the Portal no longer has is left out and the PDF says so.
 * Documents are stored, not deflated: uploads are PDFs and images, compressed already.
 */
export function packageZip(collected: Collected, names: { pdf: string }, context: { preparedBy: string; generatedAt: Date }): Readable {
  const zip = new ZipFile();
  const business = businessNameOf(collected);
  const document = packageDocument(collected, new Map(), context);
  const entryNames = uniqueNames([...collected.files.map((f, i) => documentEntryName(business, document.documents[i]!.question, f.filename)), names.pdf]);
  const output = zip.outputStream as Readable;

  void (async () => {
    const reads = new Map<string, DocumentRead>();
    for (const [i, file] of collected.files.entries()) {
      const opened = await openDocument(file);
      if ('problem' in opened) {
        reads.set(file.id, { sha256: null, problem: opened.problem });
        continue;
      }
      const hashing = hashingStream();
      zip.addReadStream(hashing.stream, entryNames[i]!, { mtime: new Date(file.created_at), compress: false });
      await pipeline(opened.body, hashing.stream);
      reads.set(file.id, { sha256: hashing.digest(), problem: null });
    }
    const pdf = renderApplicationPdf(packageDocument(collected, reads, context), context.generatedAt);
    zip.addReadStream(pdf, entryNames.at(-1)!, { mtime: context.generatedAt, compress: false });
    zip.end();
  })().catch((e: unknown) => output.destroy(e instanceof Error ? e : new Error(String(e))));
  return output;
}
