import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sandboxLog } from '../../sandbox-log';

/**
 * Text of a PDF, read by PDF.js (through unpdf) in a worker thread: the sandbox serves other
 * requests meanwhile, and a file that is too big, has too many pages, takes too long or needs too much
 * memory fails with a reason instead of stalling it. PDF.js parses, decompresses, decodes fonts and finds
 * the text; this file only bounds it and turns its text items into lines (linesOf).
 */

export type PdfFailureCode = 'corrupt_pdf' | 'encrypted_pdf' | 'no_text' | 'pdf_too_large' | 'pdf_timeout';

export type PdfTextResult = { ok: true; text: string; pages: number } | { ok: false; code: PdfFailureCode; reason: string };

export interface PdfLimits {
  maxBytes: number;
  maxPages: number;
  /** Wall-clock time for the whole file, parsing and every page. */
  timeoutMs: number;
  /** Heap of the worker thread, in MiB. */
  maxMemoryMb: number;
}

export const PDF_LIMITS: PdfLimits = { maxBytes: 25 * 1024 * 1024, maxPages: 200, timeoutMs: 15_000, maxMemoryMb: 256 };

/** One PDF.js text item: its text, where it starts on the page, its width, and whether a line ends after it. */
type TextItem = [text: string, x: number, y: number, width: number, endOfLine: boolean];

type WorkerReply =
  | { ok: true; pages: number; items: TextItem[][]; brokenStreams: number }
  | { ok: false; error: { name: string; message: string }; pages?: number };

const WORKER = join(__dirname, 'pdf-worker.mjs');

/** A trailer or cross-reference stream naming an encryption dictionary. */
const ENCRYPTED = /\/Encrypt\s*(?:\d+\s+\d+\s+R|<<)/;

const fail = (code: PdfFailureCode, reason: string): PdfTextResult => ({ ok: false, code, reason });

type WorkerOutcome = WorkerReply | 'timeout' | 'out_of_memory' | 'failed';

/**
 * One worker thread, kept between files (loading PDF.js costs far more than reading a small file) and reading
 * one file at a time. A file that runs out of time or memory ends the thread; the next file gets a new one.
 * While idle the thread does not keep the process alive.
 */
class PdfWorker {
  private worker: Worker | null = null;
  private memoryMb = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;

  read(bytes: Buffer, limits: PdfLimits): Promise<WorkerOutcome> {
    const turn = this.queue.then(() => this.readNow(bytes, limits));
    this.queue = turn;
    return turn;
  }

  private thread(memoryMb: number): Worker {
    if (this.worker && this.memoryMb === memoryMb) return this.worker;
    void this.worker?.terminate();
    // No `stdout: true` / `stderr: true`: a worker whose output streams the parent takes keeps the process alive
    // even when unref'd (Node 20), so a test run or a stopped sandbox would hang on it. The worker silences
    // PDF.js's console itself.
    const worker = new Worker(WORKER, { resourceLimits: { maxOldGenerationSizeMb: memoryMb } });
    worker.unref();
    worker.once('exit', () => {
      if (this.worker === worker) this.worker = null;
    });
    this.worker = worker;
    this.memoryMb = memoryMb;
    return worker;
  }

  private readNow(bytes: Buffer, limits: PdfLimits): Promise<WorkerOutcome> {
    const worker = this.thread(limits.maxMemoryMb);
    const id = this.nextId++;
    return new Promise((resolve) => {
      const done = (outcome: WorkerOutcome, end: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        worker.unref();
        if (end) {
          if (this.worker === worker) this.worker = null;
          void worker.terminate();
        }
        resolve(outcome);
      };
      const onMessage = (reply: WorkerReply & { id: number }) => {
        if (reply.id === id) done(reply, false);
      };
      const onError = (e: Error & { code?: string }) => {
        if (e.code !== 'ERR_WORKER_OUT_OF_MEMORY') sandboxLog.error({ err: e }, 'the PDF reader failed');
        done(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out_of_memory' : 'failed', true);
      };
      const onExit = () => done('failed', true);
      const timer = setTimeout(() => done('timeout', true), limits.timeoutMs);
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
      worker.ref();
      worker.postMessage({ id, bytes: new Uint8Array(bytes), maxPages: limits.maxPages });
    });
  }
}

const reader = new PdfWorker();

/**
 * A page's lines: PDF.js's items in content order, a new line where one ends, where the baseline moves, or
 * where the text goes back to the left (a new line with no leading set); a space where it jumps right.
 */
function linesOf(items: TextItem[]): string[] {
  const lines: string[] = [];
  let line = '';
  let last: { y: number; end: number } | null = null;
  const breakLine = () => {
    const done = line.replace(/\s+/g, ' ').trim();
    if (done) lines.push(done);
    line = '';
  };
  for (const [text, x, y, width, endOfLine] of items) {
    if (last && (Math.abs(y - last.y) > 0.5 || x < last.end - 0.5)) breakLine();
    else if (last && x > last.end + 0.5) line += ' ';
    line += text;
    last = text || !last ? { y, end: x + width } : last;
    if (endOfLine) {
      breakLine();
      last = null;
    }
  }
  breakLine();
  return lines;
}

export async function extractPdfText(bytes: Buffer, limits: PdfLimits = PDF_LIMITS): Promise<PdfTextResult> {
  if (!bytes.subarray(0, 1024).toString('latin1').includes('%PDF-')) return fail('corrupt_pdf', 'The file is not a PDF: it has no %PDF header.');
  const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;
  if (bytes.length > limits.maxBytes) return fail('pdf_too_large', `The PDF is larger than ${mib(limits.maxBytes)}; upload the pages that matter.`);

  const reply = await reader.read(bytes, limits);
  if (reply === 'timeout') return fail('pdf_timeout', `The PDF took longer than ${limits.timeoutMs / 1000} s to read; it may be damaged or too complex.`);
  if (reply === 'out_of_memory') return fail('pdf_too_large', 'The PDF needed more memory than a file may use; it may be damaged or too complex.');
  if (reply === 'failed') return fail('corrupt_pdf', 'The PDF could not be read; it may be damaged or truncated.');
  if (!reply.ok) {
    const { name } = reply.error;
    if (name === 'TooManyPages') return fail('pdf_too_large', `The PDF has ${reply.pages} pages; Autofill reads at most ${limits.maxPages}. Upload the pages that matter.`);
    if (name === 'PasswordException') return fail('encrypted_pdf', 'The PDF is encrypted; upload a copy without a password.');
    return fail('corrupt_pdf', 'The PDF could not be read; it may be damaged or truncated.');
  }
  const text = reply.items.flatMap(linesOf).join('\n');
  // PDF.js opens files encrypted with an empty user password; one that still shows nothing stays refused.
  if (!text && ENCRYPTED.test(bytes.toString('latin1'))) return fail('encrypted_pdf', 'The PDF is encrypted; upload a copy without a password.');
  if (!text && reply.brokenStreams > 0) return fail('corrupt_pdf', 'The PDF’s content could not be decompressed; the file may be damaged.');
  if (!text) return fail('no_text', 'The PDF has no text to read (it may be a scanned image).');
  return { ok: true, text, pages: reply.pages };
}
