import { formatNumberInput } from './number-input';
import type { Widget } from './widgets';

/** Widgets where nothing is typed: their options (or the file picker) already show what is expected. */
const PICKED: ReadonlySet<Widget> = new Set(['yes-no', 'checkbox', 'radio', 'select', 'checkbox-group', 'file']);

/**
 * The contract's `example` as hint text ("For example: …"), written the way the person would type it:
 * currency with grouping, lists one per line. Only for widgets where something is typed.
 */
export function exampleHint(example: unknown, widget: Widget): string | null {
  if (PICKED.has(widget)) return null;
  const text = (v: unknown): string | null => {
    if (typeof v === 'string') return v.trim() === '' ? null : v;
    if (typeof v === 'number' && Number.isFinite(v)) return formatNumberInput(v, widget);
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    return null;
  };
  if (Array.isArray(example)) {
    const parts = example.map(text).filter((p): p is string => p !== null);
    return parts.length === 0 ? null : parts.join(widget === 'list' ? '\n' : ', ');
  }
  return text(example);
}
