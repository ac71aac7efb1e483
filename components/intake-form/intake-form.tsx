'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useRouter } from 'next/navigation';
import { FormProvider, useForm } from 'react-hook-form';
import type { FormBase } from '@/lib/api/form-base';
import type { ApplicationView } from '@/lib/bff/applications';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { answerName, fieldForName, formModel, nestValues, parseName, type FormValues } from '@/lib/forms';
import { openRuntime } from '@/components/intake-form/runtime/form-runtime';
import type { FormOpeningView } from '@/lib/forms/opening';
import { applicationKey, applicationQuery } from '@/lib/queries/application';
import { showTheirs, useLiveFormRefresh } from '@/components/live/use-live-form-refresh';
import { LoadError } from '../ui/load-state';
import { When } from '../ui/when';
import { autosaveSender } from './runtime/transport';
import { inputIdOf, toDomValue } from './dom-values';
import { MergeNotices } from './merge-notices';
import { FormEnvProvider, type FormEnv } from './runtime-context';
import { SaveStatus } from './save-status';
import { SectionNav } from './section-nav';
import { SectionView } from './section-view';
import { SubmitPanel } from './submit-panel';
import { ThingsToFix } from '@/components/review/things-to-fix';
import { reviewQuery, useReviewAction } from '@/lib/queries/review';
import { measured } from './timing';
import { mergeNested } from './merge-nested';
import { whenIdle } from '@/components/intake-form/runtime/scheduling';

interface Props {
  apiBase: FormBase;
  /** The whole snapshot, or an opening (one section and an index) that `full` completes once it is read. */
  snapshot: FormSnapshotView | FormOpeningView;
  full?: FormSnapshotView;
  /** Why reading the whole snapshot failed, and how to try again (an opening only). */
  fullError?: Error | null;
  onRetryFull?: () => void;
  /** Staff and invited clients write; reviewers read. */
  canWrite: boolean;
  /** Who is typing on this device: unsaved edits are kept per person and application. */
  deviceKey: string;
  initialSection: string | null;
  /** Told of every section the person opens (the invited client's place is remembered for their next visit). */
  onSectionOpened?: (sectionKey: string) => void;
  /** What sends a form that is not submitted (a project's criteria: Find funders), with the form's runtime at hand. */
  footer?: ReactNode;
  /** Where the person goes once they have submitted (the invited client's confirmation); else they stay on the form. */
  afterSubmit?: string;
  /** An intake application reviewed before submit (DESIGN.md §9): whose page this is decides what it shows. */
  review?: { applicationId: string; client: boolean };
}

const REFRESH_PROGRESS_MS = 1_500;

/**
 * The contract-driven form (DESIGN.md §4). The contract becomes a model once; react-hook-form holds the
 * inputs (uncontrolled); the runtime holds visibility, items, files and autosave. One section is shown
 * at a time, so a 1,000-field contract opens as fast as a short one.
 */
export function IntakeForm({ apiBase, snapshot, full, fullError = null, onRetryFull, canWrite, deviceKey, initialSection, onSectionOpened, footer, afterSubmit, review }: Props) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [runtime] = useState(() =>
    measured('intake:open', () =>
      openRuntime(snapshot, canWrite ? deviceKey : null, measured('intake:model', () => formModel(snapshot.contract))),
    ),
  );
  // The model grows once, from the opening section's to the whole contract's (runtime.upgrade).
  const model = useSyncExternalStore(runtime.subscribe, () => runtime.model, () => runtime.model);
  const complete = runtime.complete; // changes with the model, which re-renders this
  const openingSection = 'opening' in snapshot ? snapshot.opening.sectionKey : null;
  const { data: application } = useQuery({ ...applicationQuery(apiBase), initialData: snapshot.application, staleTime: REFRESH_PROGRESS_MS });
  const [submitted, setSubmitted] = useState<ApplicationView | null>(snapshot.application.submitted_at ? snapshot.application : null);
  const { data: reviewNow } = useQuery({ ...reviewQuery(apiBase, review?.applicationId ?? ''), enabled: review !== undefined });
  const reviewAction = useReviewAction(apiBase, review?.applicationId ?? '');
  const clientReview = review?.client && reviewNow && !reviewNow.client_submits ? reviewNow : null;
  // While staff review it, the client's form is read-only (the server refuses their writes too).
  const withStaff = clientReview?.state === 'in_review';
  const editable = canWrite && submitted === null && application.submitted_at === null && !withStaff;
  const openRequests = clientReview?.state === 'changes_requested' ? clientReview.requests : null;
  const changeRequests = useMemo(
    () => new Map((openRequests ?? []).filter((r) => r.status === 'open' && r.field_name).map((r) => [r.field_name!, r.comment])),
    [openRequests],
  );

  const defaultValues = useMemo(() => {
    const dom: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(runtime.values)) {
      const field = fieldForName(model, name);
      if (field && field.widget !== 'file') dom[name] = toDomValue(field, value);
    }
    return nestValues(dom as FormValues);
  }, [runtime, model]);
  const form = useForm({ defaultValues, mode: 'onTouched', shouldUnregister: false });

  const sections = model.sections;
  const [section, setSection] = useState(() =>
    sections.some((s) => s.sectionKey === initialSection) ? (initialSection as string) : (sections[0]?.sectionKey ?? ''),
  );
  const [focusHeading, setFocusHeading] = useState(false);
  const pendingFocus = useRef<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const openSection = useCallback(
    (key: string, focus = true) => {
      setSection(key);
      setFocusHeading(focus && pendingFocus.current === null);
      const url = new URL(window.location.href);
      url.searchParams.set('section', key);
      window.history.replaceState(window.history.state, '', url);
      onSectionOpened?.(key);
    },
    [onSectionOpened],
  );

  const goToField = useCallback(
    (name: string) => {
      const field = fieldForName(model, name);
      const parsed = parseName(name);
      const sectionKey =
        field?.question.sectionKey ??
        (parsed?.scope === 'group' ? model.groupByKey.get(parsed.blockKey)?.sectionKey : undefined);
      pendingFocus.current = name;
      if (sectionKey && sectionKey !== section) openSection(sectionKey, false);
      else focusPending(pendingFocus);
    },
    [model, section, openSection],
  );

  // A field in another section can be focused only once that section has rendered.
  useEffect(() => {
    if (pendingFocus.current !== null) focusPending(pendingFocus);
  });

  const { setValue, setValues, getValues } = form;
  useEffect(() => {
    if (full === undefined || runtime.complete) return;
    // Two short tasks in idle moments rather than one long one: someone typing in the first section does not
    // wait for a 1,000-field model to be compiled and applied.
    let cancel = whenIdle(() => {
      const model = measured('intake:upgrade-model', () => formModel(full.contract));
      cancel = whenIdle(() => {
        if (runtime.complete) return;
        measured('intake:upgrade', () =>
          runtime.upgrade(
            full,
            (added) =>
              measured('intake:upgrade-show', () => {
                const dom: Record<string, unknown> = {};
                for (const [name, value] of Object.entries(added)) {
                  const field = fieldForName(runtime.model, name);
                  if (field && field.widget !== 'file') dom[name] = toDomValue(field, value);
                }
                // One update of the form's values: other sections' inputs find theirs when they mount.
                setValues(mergeNested(getValues(), nestValues(dom as FormValues)) as never);
              }),
            model,
          ),
        );
        if (!editable) showTheirs(runtime, setValue);
      });
    });
    return () => cancel();
  }, [full, runtime, editable, setValue, setValues, getValues]);

  useEffect(() => {
    if (!editable) return;
    let refresh: ReturnType<typeof setTimeout> | undefined;
    // The model grows at the upgrade (which may send edits at once): writes and values take the runtime's own.
    const detach = runtime.attach({
      send: autosaveSender(apiBase, runtime),
      showValues: (values) => {
        for (const [name, value] of Object.entries(values)) {
          const field = fieldForName(runtime.model, name);
          if (field && field.widget !== 'file') setValue(name, toDomValue(field, value) as never, { shouldDirty: false });
        }
      },
      saved: () => {
        // The Portal's progress follows the answers: read it again once a burst of saves is over.
        clearTimeout(refresh);
        refresh = setTimeout(() => void queryClient.invalidateQueries({ queryKey: applicationKey(apiBase) }), REFRESH_PROGRESS_MS);
      },
    });
    return () => {
      clearTimeout(refresh);
      detach();
    };
  }, [editable, runtime, apiBase, setValue, queryClient]);

  // Others' answers, items, files, accepted suggestions and submission arrive without a reload.
  useLiveFormRefresh({ apiBase, runtime, editable, setValue });

  // Hydrated and listening: benchmarks and tests wait for this mark (no re-render needed to set it).
  useEffect(() => {
    formRef.current?.setAttribute('data-form-ready', 'true');
    performance.mark('intake:ready');
  }, []);

  // A project's criteria mark the answers still holding what the intake application gave.
  const prefilledAnswers = application.prefilled_answers;
  const prefilled = useMemo(
    () => new Set((prefilledAnswers ?? []).map((a) => answerName(a.block_key, a.schema_key, a.field_key))),
    [prefilledAnswers],
  );
  const env: FormEnv = useMemo(() => ({ runtime, apiBase, editable, goToField, prefilled, changeRequests }), [runtime, apiBase, editable, goToField, prefilled, changeRequests]);
  const current = sections.find((s) => s.sectionKey === section) ?? sections[0];
  const index = current ? sections.indexOf(current) : -1;
  const prev = index > 0 ? sections[index - 1] : undefined;
  const next = index >= 0 && index < sections.length - 1 ? sections[index + 1] : undefined;
  const shown = submitted ?? application;

  return (
    <FormEnvProvider value={env}>
      <FormProvider {...form}>
        <div className="intake">
          <header className="intake-head">
            <div>
              <p className="muted">{shown.kind === 'deal' ? 'Deal application' : shown.kind === 'criteria' ? 'Funding criteria' : (shown.business?.name ?? 'Unnamed business')}</p>
              {/* A project's criteria sit inside the project page, whose name is the page's one h1. */}
              {shown.kind === 'criteria' ? <h2>{snapshot.contract.application_name}</h2> : <h1>{snapshot.contract.application_name}</h1>}
              {snapshot.contract.description && <p>{snapshot.contract.description}</p>}
            </div>
            <dl className="facts">
              {shown.status && (
                <div>
                  <dt>Status</dt>
                  <dd>{shown.status.label}</dd>
                </div>
              )}
              {shown.progress && (
                <div>
                  <dt>Progress</dt>
                  <dd>
                    <progress max={100} value={shown.progress.percent} aria-label="Application progress" /> {shown.progress.percent}%
                  </dd>
                </div>
              )}
            </dl>
          </header>
          {shown.submitted_at ? (
            <p className="notice success" role="status">
              Submitted on{' '}
              <When iso={shown.submitted_at} />
              . The answers can no longer be changed.
            </p>
          ) : withStaff ? (
            <p className="notice info" role="status">
              Your application is with the team for review. You cannot change your answers while they review it: they will submit it, or ask you
              for changes here and by email.
            </p>
          ) : !canWrite ? (
            <p className="notice info">You can read this application; only staff and the invited client can change it.</p>
          ) : (
            <>
              {snapshot.contract.instructions && <p className="instructions">{snapshot.contract.instructions}</p>}
              <SaveStatus />
            </>
          )}
          {openRequests && <ThingsToFix requests={openRequests} onReply={(id, text) => reviewAction.mutateAsync({ kind: 'reply', body: { request_id: id, text } })} />}
          <MergeNotices />
          <div className="intake-body">
            <SectionNav current={current?.sectionKey ?? ''} onOpen={(key) => openSection(key)} />
            <form
              className="intake-form"
              noValidate
              aria-label={snapshot.contract.application_name}
              ref={formRef}
              onSubmit={(e) => e.preventDefault()}
            >
              <fieldset disabled={!editable} className="plain">
                {current && (complete || current.sectionKey === openingSection) ? (
                  <SectionView key={current.sectionKey} section={current} focusHeading={focusHeading} />
                ) : fullError ? (
                  <LoadError onRetry={() => onRetryFull?.()}>This section could not be loaded: {fullError.message}</LoadError>
                ) : (
                  <p role="status" className="loading">
                    Loading this section…
                  </p>
                )}
              </fieldset>
              <nav aria-label="Section pages" className="pager">
                {prev && (
                  <button type="button" className="secondary" onClick={() => openSection(prev.sectionKey)}>
                    ← {prev.label}
                  </button>
                )}
                {next && (
                  <button type="button" onClick={() => openSection(next.sectionKey)}>
                    {next.label} →
                  </button>
                )}
              </nav>
            </form>
          </div>
          {/* A project's criteria are not submitted: finding funders is what takes them. */}
          {editable && shown.kind !== 'criteria' && !(review?.client && !reviewNow) && (
            <SubmitPanel
              review={clientReview ? { send: () => reviewAction.mutateAsync({ kind: 'send' }), again: clientReview.state === 'changes_requested' } : undefined}
              fromReview={review !== undefined && !review.client && reviewNow?.state === 'in_review'}
              onSubmitted={(app) => {
                setSubmitted(app);
                if (afterSubmit) router.push(afterSubmit);
              }}
            />
          )}
          {footer}
        </div>
      </FormProvider>
    </FormEnvProvider>
  );
}

/** Focuses the field a link asked for, once its input is in the page. */
function focusPending(pending: { current: string | null }) {
  const name = pending.current;
  if (name === null) return;
  const el = document.getElementById(inputIdOf(name));
  if (el) {
    pending.current = null;
    el.focus();
    el.scrollIntoView({ block: 'center' });
  }
}
