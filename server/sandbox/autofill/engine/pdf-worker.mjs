// The PDF reader's worker thread: PDF.js (through unpdf) parses files here, one at a time, so a file that takes
// too long or too much memory is ended by terminating the thread, never by stalling the sandbox. Plain
// JavaScript so it runs the same under tsx, Vitest and node. Each request { id, bytes, maxPages } gets one reply:
// { id, ok: true, pages, items, brokenStreams } | { id, ok: false, error: { name, message }, pages? },
// where items[page] lists PDF.js's text items as [text, x, y, width, endOfLine].
import { parentPort } from 'node:worker_threads';
import { getDocumentProxy } from 'unpdf';

// PDF.js reports what it skips as console warnings; a stream it could not decode is how a damaged file shows.
// Nothing it writes is for the sandbox's output: what went wrong comes back in the reply.
let brokenStreams = 0;
console.warn = (...args) => {
  if (String(args[0]).startsWith('Warning: Invalid stream')) brokenStreams++;
};
console.log = console.info = console.debug = console.error = () => {};

async function read({ bytes, maxPages }) {
  brokenStreams = 0;
  const pdf = await getDocumentProxy(bytes, { isEvalSupported: false, stopAtErrors: false });
  try {
    if (pdf.numPages > maxPages) return { ok: false, error: { name: 'TooManyPages', message: '' }, pages: pdf.numPages };
    const items = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      items.push(content.items.filter((i) => typeof i.str === 'string').map((i) => [i.str, i.transform[4], i.transform[5], i.width, i.hasEOL]));
      page.cleanup();
    }
    return { ok: true, pages: pdf.numPages, items, brokenStreams };
  } finally {
    await pdf.destroy();
  }
}

parentPort.on('message', (request) => {
  read(request).then(
    (result) => parentPort.postMessage({ id: request.id, ...result }),
    (e) => parentPort.postMessage({ id: request.id, ok: false, error: { name: e?.name ?? 'Error', message: String(e?.message ?? e) } }),
  );
});
