/**
 * Names of the files in a funder's ZIP: `<business> – <question> – <file>`, safe for every unzip tool and
 * file system. Names come from people (a business name, a label, an uploaded file's name), so anything
 * that could climb out of the folder (`/`, `\`, `..`), end a C string (NUL), disguise an extension (bidi
 * controls: "invoice‮fdp.exe") or be refused by Windows (`:*?"<>|`, trailing dots) is taken out.
 */

// C0/C1 controls, bidi embeddings, overrides, isolates and marks, line/paragraph separators, zero-width characters.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
const RESERVED = /[\\/:*?"<>|]/g;
const SEPARATOR = ' – ';

/** Cuts at a whole code point (a surrogate pair is never split). */
const clip = (s: string, max: number) => Array.from(s).slice(0, max).join('').trim();

/** One part of a name: no separators, controls or reserved characters, no leading or trailing dots, never empty. */
export function safeNamePart(value: string, fallback: string, max = 80): string {
  const cleaned = value
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(RESERVED, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  const out = clip(cleaned, max).replace(/[.\s]+$/, '');
  return out === '' ? fallback : out;
}

/** A file's name split so the extension survives shortening. */
function splitExtension(filename: string): { base: string; ext: string } {
  const match = /^(.*?)(\.[\p{L}\p{N}]{1,10})$/u.exec(filename);
  return match ? { base: match[1]!, ext: match[2]! } : { base: filename, ext: '' };
}

/** `<business> – <question> – <file>` for one document. */
export function documentEntryName(business: string, question: string, filename: string): string {
  const { base, ext } = splitExtension(filename.replace(INVISIBLE, '').trim());
  const safeExt = ext === '' ? '' : safeNamePart(ext.slice(1), '', 10);
  return [safeNamePart(business, 'Business', 60), safeNamePart(question, 'Document', 60), safeNamePart(base, 'file', 100)].join(SEPARATOR) + (safeExt ? `.${safeExt}` : '');
}

/** Names made unique (case-insensitively, as Windows and macOS compare them): a repeat gets " (2)", " (3)" before its extension. */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const { base, ext } = splitExtension(name);
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
