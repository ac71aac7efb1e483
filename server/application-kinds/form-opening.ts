import 'server-only';
import { formOpening } from '@/lib/forms/opening';
import type { FormSnapshot } from './form-snapshot';

/**
 * What a form page hands its browser, as one JSON string (a large object serializes and parses several
 * times faster that way than as the tree React would encode): the section the person opens and an index of
 * the rest (lib/forms/opening), not the whole snapshot, which the browser reads once the form is interactive.
 */
export async function formOpeningJson(snapshot: Promise<FormSnapshot>, section: string | null): Promise<string> {
  const { requestId: _requestId, ...whole } = await snapshot;
  return JSON.stringify(formOpening(whole, section));
}
