'use client';

import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { formLiveQuery, type FormBase } from '@/lib/api/form-base';
import { formReadsFor, type LiveMessageView } from '@/lib/bff/live-events';
import { fieldForName, type FormValue } from '@/lib/forms';
import { applicationKey } from '@/lib/queries/application';
import { formSnapshotKey, readFormSnapshot } from '@/lib/queries/form-snapshot';
import { toDomValue } from '@/components/intake-form/dom-values';
import type { FormRuntime } from '@/components/intake-form/runtime/form-runtime';
import { CoalescedRunner } from './coalesced-runner';
import { useLiveEvents } from './use-live-events';

/** A burst of events (a batch of saves, an accepted suggestion) becomes one read. */
const COALESCE_MS = 250;

interface Options {
  apiBase: FormBase;
  runtime: FormRuntime;
  /** False for a read-only form: no autosave is attached, so merged values are put into the inputs here. */
  editable: boolean;
  setValue: (name: string, value: never, options: { shouldDirty: boolean }) => void;
}

/**
 * Keeps an open form current while others work on the same application: on its live events the form is
 * read again and merged like after a 412 (runtime.refreshFrom: theirs shown with a notice, mine kept,
 * both-changed asked). One read at a time, bursts coalesced. An event naming an answers_revision the page
 * already holds (its own save coming back) causes no read at all.
 */
export function useLiveFormRefresh(options: Options) {
  const queryClient = useQueryClient();
  const [runner] = useState(() => new CoalescedRunner(COALESCE_MS));
  useEffect(() => {
    runner.start();
    return () => runner.stop();
  }, [runner]);

  const { apiBase, runtime } = options;
  const onMessage = (m: LiveMessageView) => {
    const reads = formReadsFor(m, runtime.autosave.answersRevision);
    if (reads === 'nothing') return;
    // Whatever else the page shows of the application (Autofill runs, the review, …) may have moved too; the
    // application itself and the form come with the read.
    const own = new Set<unknown>([formSnapshotKey(apiBase)[0], applicationKey(apiBase)[0]]);
    void queryClient.invalidateQueries({ predicate: (q) => q.queryKey.includes(apiBase) && !own.has(q.queryKey[0]) });
    // A review that moved changed no answer: reading the whole form for each "Looks right" would cost every
    // open page (the client's too) a form read per mark.
    if (reads === 'form') runner.request(() => readAndMerge({ ...options, queryClient }));
  };
  useLiveEvents(formLiveQuery(apiBase), onMessage);
}

async function readAndMerge({ apiBase, runtime, editable, setValue, queryClient }: Options & { queryClient: QueryClient }) {
  // A page opened on one section merges into the whole model: its own read of the snapshot brings it.
  await runtime.whenComplete();
  const readMark = runtime.readMark();
  const snapshot = await readFormSnapshot(apiBase);
  queryClient.setQueryData(applicationKey(apiBase), snapshot.application);
  // An older or equal revision holds nothing this page lacks (a read overtaken by its own save).
  if (snapshot.answers.answers_revision <= runtime.autosave.answersRevision) return;
  runtime.refreshFrom(snapshot, readMark);
  if (!editable) showTheirs(runtime, setValue);
}

/** A read-only form has no autosave hooks to put merged values into its inputs: this does. */
export function showTheirs(runtime: FormRuntime, setValue: Options['setValue']) {
  for (const t of runtime.autosave.theirsApplied) {
    const field = fieldForName(runtime.model, t.name);
    if (field && field.widget !== 'file') setValue(t.name, toDomValue(field, t.theirs as FormValue) as never, { shouldDirty: false });
  }
}
