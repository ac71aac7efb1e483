import { ALLOWED_UPLOAD_TYPES, MAX_UPLOAD_BYTES } from '@/lib/bff/file-transfer';

/**
 * What the browser can tell about chosen files before sending a byte: the BFF refuses the same things
 * (type, size, empty) only after the user has waited for the upload.
 */

export interface FileFacts {
  name: string;
  size: number;
  type: string;
}

export interface FileCheckOptions {
  /** Files already attached or on their way: they count against `maxFiles`. */
  already: number;
  maxFiles: number | undefined;
  /** Whether the question takes more than one file per pick (a single-file picker may still get a drop of many). */
  multiple: boolean;
  allowedTypes?: readonly string[];
  maxBytes?: number;
}

export type FileCheck<F extends FileFacts = FileFacts> =
  | { file: F; ok: true; contentType: string }
  | { file: F; ok: false; reason: 'type' | 'empty' | 'size' | 'count'; message: string };

const TYPE_NAMES: Record<string, string> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'text/plain': 'text',
  'text/csv': 'CSV',
  'application/msword': 'Word',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'application/vnd.ms-excel': 'Excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
};

/** Browsers leave `type` empty for names they do not know (a .csv or .docx on some systems). */
const TYPE_BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  txt: 'text/plain',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

function extensionOf(name: string): string | null {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : null;
}

/** The media type to upload the file as: the browser's, or one guessed from the name when it has none. */
export function contentTypeOf(file: Pick<FileFacts, 'name' | 'type'>): string {
  const own = file.type.split(';')[0]!.trim().toLowerCase();
  if (own) return own;
  const ext = extensionOf(file.name);
  return (ext && TYPE_BY_EXTENSION[ext]) || '';
}

/** The picker's `accept`: extensions as well as types, since some systems filter only by extension. */
export function acceptAttribute(allowedTypes: readonly string[] = ALLOWED_UPLOAD_TYPES): string {
  const allowed = new Set(allowedTypes);
  const extensions = Object.entries(TYPE_BY_EXTENSION)
    .filter(([, type]) => allowed.has(type))
    .map(([ext]) => `.${ext}`);
  return [...allowedTypes, ...extensions].join(',');
}

/** "PDF, PNG, JPEG, text, CSV, Word or Excel" */
export function describeTypes(allowedTypes: readonly string[] = ALLOWED_UPLOAD_TYPES): string {
  const names = [...new Set(allowedTypes.map((t) => TYPE_NAMES[t] ?? t))];
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

const KB = 1024;
const MB = 1024 * KB;

/** Sizes as people read them (binary units under the usual names, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < KB) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  if (bytes < MB) return `${trim(bytes / KB)} KB`;
  return `${trim(bytes / MB)} MB`;
}

function trim(n: number): string {
  return n >= 100 ? String(Math.round(n)) : String(Math.round(n * 10) / 10);
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Decides for each file, in order, whether it can be uploaded. Type, emptiness and size are checked first,
 * so that a refused file never takes one of the question's places from a good one.
 */
export function checkFilesBeforeUpload<F extends FileFacts>(files: readonly F[], opts: FileCheckOptions): FileCheck<F>[] {
  const allowedTypes = opts.allowedTypes ?? ALLOWED_UPLOAD_TYPES;
  const maxBytes = opts.maxBytes ?? MAX_UPLOAD_BYTES;
  const allowed = new Set(allowedTypes);
  let room = opts.maxFiles === undefined ? Infinity : Math.max(0, opts.maxFiles - opts.already);
  let taken = 0;

  return files.map((file): FileCheck<F> => {
    const contentType = contentTypeOf(file);
    if (!allowed.has(contentType)) {
      return { file, ok: false, reason: 'type', message: `${file.name}: this type of file is not accepted (${describeTypes(allowedTypes)})` };
    }
    if (file.size === 0) {
      return { file, ok: false, reason: 'empty', message: `${file.name} is empty; choose a file with content` };
    }
    if (file.size > maxBytes) {
      const size = formatBytes(file.size);
      const max = formatBytes(maxBytes);
      // Rounding can make a file just over the limit read as the limit itself.
      const is = size === max ? `is larger than ${max}` : `is ${size}`;
      return { file, ok: false, reason: 'size', message: `${file.name} ${is}; the largest file accepted is ${max}` };
    }
    if (!opts.multiple && taken >= 1) {
      return { file, ok: false, reason: 'count', message: `${file.name} was not added: choose one file at a time` };
    }
    if (room <= 0) {
      const max = opts.maxFiles ?? 0;
      return {
        file,
        ok: false,
        reason: 'count',
        message: `${file.name} was not added: only ${plural(max, 'file')} can be attached; remove one first`,
      };
    }
    room -= 1;
    taken += 1;
    return { file, ok: true, contentType };
  });
}

const fileCount = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

/** What became of a choice of files, for a live region: "3 files dropped. Uploading 2 files. 1 file not accepted." */
export function choiceSummary(checks: readonly FileCheck[], how: 'chosen' | 'dropped'): string {
  const accepted = checks.filter((c) => c.ok).length;
  const refused = checks.length - accepted;
  return (
    `${fileCount(checks.length)} ${how}. ` +
    (accepted > 0 ? `Uploading ${fileCount(accepted)}. ` : '') +
    (refused > 0 ? `${fileCount(refused)} not accepted.` : '')
  );
}
