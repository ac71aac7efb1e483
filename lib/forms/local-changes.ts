import type { FileView } from '@/lib/bff/files';

/**
 * The page's own item and file writes, in the order their replies arrived, so that a read started before
 * one of them cannot undo it. A read of the form started after a write's reply shows that write (the
 * upstream committed it before replying); a read started before it may not, and applying such a read as
 * it is would make a just-added item or file vanish (or a just-removed one come back) until the next read.
 * Revisions cannot tell: an upload's reply carries none, and an item's revision is not adopted when other
 * writes landed in between. So reads take a `mark` when they start, and what was written after the mark
 * is laid over what they bring.
 */

type Change =
  | { readonly kind: 'item'; readonly itemId: string; readonly present: boolean; readonly at: number }
  | { readonly kind: 'file'; readonly name: string; readonly file: FileView; readonly present: boolean; readonly at: number };

/** What a read started at some mark may not show yet. */
export interface WrittenSince {
  /** Items added since, and not removed again. */
  readonly itemsAdded: ReadonlySet<string>;
  /** Items removed since. */
  readonly itemsRemoved: ReadonlySet<string>;
  /** The files of each answer name as the read has them, with the files attached or removed since laid over. */
  filesOver(read: ReadonlyMap<string, readonly FileView[]>): Map<string, readonly FileView[]>;
}

export class LocalChanges {
  private seq = 0;
  private log: Change[] = [];

  /** Taken when a read starts: writes confirmed before it are in what the read brings. */
  mark(): number {
    return this.seq;
  }

  itemAdded(itemId: string) {
    this.log.push({ kind: 'item', itemId, present: true, at: ++this.seq });
  }

  itemsRemoved(itemIds: readonly string[]) {
    const at = ++this.seq;
    for (const itemId of itemIds) this.log.push({ kind: 'item', itemId, present: false, at });
  }

  fileAdded(name: string, file: FileView) {
    this.log.push({ kind: 'file', name, file, present: true, at: ++this.seq });
  }

  fileRemoved(name: string, file: FileView) {
    this.log.push({ kind: 'file', name, file, present: false, at: ++this.seq });
  }

  /** What a read started at `mark` may lack. */
  since(mark: number): WrittenSince {
    const recent = this.log.filter((c) => c.at > mark);
    const itemsAdded = new Set<string>();
    const itemsRemoved = new Set<string>();
    for (const c of recent) {
      if (c.kind !== 'item') continue;
      (c.present ? itemsAdded : itemsRemoved).add(c.itemId);
      (c.present ? itemsRemoved : itemsAdded).delete(c.itemId);
    }
    return {
      itemsAdded,
      itemsRemoved,
      filesOver(read) {
        const files = new Map(read);
        for (const c of recent) {
          if (c.kind !== 'file') continue;
          const list = (files.get(c.name) ?? []).filter((f) => f.id !== c.file.id);
          files.set(c.name, c.present ? [...list, c.file] : list);
        }
        return files;
      },
    };
  }

  /** A read started at `mark` was taken in: what came before it needs no more protecting. */
  forgetUpTo(mark: number) {
    this.log = this.log.filter((c) => c.at > mark);
  }
}
