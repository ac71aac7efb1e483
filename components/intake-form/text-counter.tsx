'use client';

import { useWatch } from 'react-hook-form';
import { textLength, type TextLimit } from '@/lib/forms';
import './text-counter.css';

const COUNT = new Intl.NumberFormat('en-US');
/** The counter appears from this share of the limit: early enough to plan, late enough not to distract. */
const SHOW_FROM = 0.9;

/**
 * A live count near a text's limit, and a plain statement once it is over: the text is never cut (no
 * maxlength), so the person sees what they typed or pasted and why it is not saved yet. Only this
 * component re-renders on a keystroke (useWatch of one name).
 */
export function TextCounter({ name, id, limit, pasted }: { name: string; id: string; limit: TextLimit; pasted: boolean }) {
  const value: unknown = useWatch({ name });
  const length = typeof value === 'string' ? textLength(value, limit.units) : 0;
  const over = length > limit.max;
  const shown = length >= Math.ceil(limit.max * SHOW_FROM);
  return (
    <>
      <p id={id} className={`field-count${over ? ' over' : ''}`}>
        {!shown
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
