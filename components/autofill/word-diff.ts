/** One piece of a word diff: kept in both, only in the old text, or only in the new one. */
export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Past this many words on a side the texts are shown as replaced whole: the table would cost too much. */
const MAX_TOKENS = 600;

const tokens = (text: string): string[] => text.split(/(\s+)/).filter((t) => t !== '');

function push(parts: DiffPart[], kind: DiffPart['kind'], text: string) {
  const last = parts.at(-1);
  if (last && last.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

/**
 * A word-level diff (longest common subsequence over words and the spaces between them), so a reviewer
 * sees which words a proposal changes rather than two long texts to compare by eye.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) {
    return [
      ...(before ? [{ kind: 'removed' as const, text: before }] : []),
      ...(after ? [{ kind: 'added' as const, text: after }] : []),
    ];
  }
  // lcs[i][j]: length of the common subsequence of a[i..] and b[j..].
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push(parts, 'same', a[i]!);
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) {
      push(parts, 'removed', a[i++]!);
    } else {
      push(parts, 'added', b[j++]!);
    }
  }
  while (i < a.length) push(parts, 'removed', a[i++]!);
  while (j < b.length) push(parts, 'added', b[j++]!);
  return parts;
}

/**
 * One side of a diff (the old text with its removals, or the new one with its additions), with the spaces
 * between two changed words folded into the change: "Someone Else" reads as one removal, not two.
 */
export function diffSide(parts: readonly DiffPart[], side: 'removed' | 'added'): DiffPart[] {
  const kept = parts.filter((p) => p.kind === 'same' || p.kind === side);
  const out: DiffPart[] = [];
  kept.forEach((p, i) => {
    const between = p.kind === 'same' && p.text.trim() === '' && kept[i - 1]?.kind === side && kept[i + 1]?.kind === side;
    push(out, between ? side : p.kind, p.text);
  });
  return out;
}
