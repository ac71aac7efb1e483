import 'server-only';
import { formOpening } from '@/lib/forms/opening';
import { handOver } from './form-handover';
import type { FormSnapshot } from './form-snapshot';

/**
 * What a form page hands its browser, as one JSON string (a large object serializes and parses several
 * times faster that way than as the tree React would encode): the section the person opens and an index of
 * the rest (lib/forms/opening), not the whole snapshot, which the browser reads once the form is interactive
 * (handed over from here: form-handover).
 */
export async function formOpeningJson(
  snapshot: Promise<FormSnapshot>,
  section: string | null,
  reader: { sid: string; id: string },
): Promise<string> {
  const whole = await snapshot;
  const opening = formOpening(whole, section);
  // The rest is handed over to the browser's read of the whole form, not read upstream again.
  return JSON.stringify({ ...opening, opening: { ...opening.opening, rest: handOver(reader.sid, reader.id, whole) } });
}
