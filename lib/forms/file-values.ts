import type { FileView } from '../bff/files';
import { answerName, itemName } from './names';

/** Attached files by the form name of their question (and item): a file field's value is its files' ids. */
export function groupFiles(files: readonly FileView[]): Map<string, FileView[]> {
  const map = new Map<string, FileView[]>();
  for (const f of files) {
    const name = f.item_id ? itemName(f.item_id, f.schema_key, f.field_key) : answerName(f.block_key, f.schema_key, f.field_key);
    map.set(name, [...(map.get(name) ?? []), f]);
  }
  return map;
}
