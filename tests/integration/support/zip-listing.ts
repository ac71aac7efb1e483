/**
 * A ZIP's entries read from its central directory (APPNOTE 4.3.12, 4.3.16): name, method, sizes, and the
 * bytes of stored (method 0) entries. Enough to check a package's listing and contents; no ZIP64.
 */
export interface ZipEntry {
  name: string;
  method: number;
  size: number;
  /** The bytes, for a stored entry; null for a compressed one. */
  data: Buffer | null;
}

export function zipEntries(zip: Buffer): ZipEntry[] {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('no end of central directory record');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory header at ${at}`);
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const rawName = zip.subarray(at + 46, at + 46 + nameLength);
    const name = flags & 0x800 ? rawName.toString('utf8') : rawName.toString('latin1');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    entries.push({ name, method, size, data: method === 0 ? zip.subarray(dataAt, dataAt + compressed) : null });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
