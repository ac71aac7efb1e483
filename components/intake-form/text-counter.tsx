'use client';

import { textLength, type FieldModel, type TextLimit } from '@/lib/forms';
import { toDomValue } from './dom-values';
import { useRuntime } from './runtime-context';
import './text-counter.css';

const COUNT = new Intl.NumberFormat('en-US');
/** The counter appears from this share of the limit: early enough to plan, late enough not to distract. */
const SHOW_FROM = 0.9;

/**
 * A live count near a text's limit, and a plain statement once it is over: the text is never cut (no
 * maxlength), so the person sees what they typed or pasted and why it is not saved yet. The length comes
 * from the runtime's mirror of the values as a number that stays -1 below the threshold, so a keystroke far
 * from the limit re-renders nothing. (A react-hook-form useWatch here made it copy the whole form's values on
 * every keystroke in this field: 0.4 ms of a 1,214-field form's keystroke.)
 */
export function TextCounter({ field, name, id, limit, pasted }: { field: FieldModel; name: string; id: string; limit: TextLimit; pasted: boolean }) {
  const length = useRuntime((r) => {
    const text = toDomValue(field, r.values[name]);
    const n = typeof text === 'string' ? textLength(text, limit.units) : 0;
    return n >= Math.ceil(limit.max * SHOW_FROM) ? n : -1;
  });
  const over = length > limit.max;
  return (
    <>
      <p id={id} className={`field-count${over ? ' over' : ''}`}>
        {length < 0
          ? null
          : over
            ? `${COUNT.format(length - limit.max)} ${length - limit.max === 1 ? 'character' : 'characters'} too many: ${COUNT.format(length)} of ${COUNT.format(limit.max)}. Not saved until it is shorter.`
            : `${COUNT.format(length)} of ${COUNT.format(limit.max)} characters`}
      </p>
      {/* Announced once, when a paste went over: typing near the limit is not read out key by key. */}
      <p className="field-count over" aria-live="polite">
        {pasted && over
          ? `What you pasted made this longer than ${COUNT.format(limit.max)} characters. Nothing was cut; shorten it to save it.`
          : null}
      </p>
    </>
  );
}
