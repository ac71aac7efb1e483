/** RFC 5987 attr-char: everything else is percent-encoded in filename*. */
const encodeRfc5987 = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A file name as a browser may send it, made safe for a header: no directory part (old browsers send
 * C:\fakepath\...), no control characters, at most 255 characters, never empty.
 */
export function cleanFilename(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<encoded>` (RFC 6266): recipients that know
 * filename* use the exact name, older ones get an ASCII approximation.
 */
export function contentDisposition(filename: string): string {
  const name = cleanFilename(filename);
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}
