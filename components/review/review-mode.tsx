'use client';

import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type ReactNode } from 'react';
import { ApiError, referencedMessage } from '@/lib/api/api-error';
import type { FormBase } from '@/lib/api/form-base';
import type { ChangeRequestCreateBody, ChangeRequestView } from '@/lib/bff/review';
import type { ReviewAnswerView, ReviewItemView } from '@/lib/bff/review-marks';
import { reviewMarksQuery, useReviewMark } from '@/lib/queries/review-marks';
import { When } from '@/components/ui/when';
import { InlineRequestForm } from './inline-request-form';

interface Props {
  apiBase: FormBase;
  applicationId: string;
  /** The review's change requests (an answer asked about shows it). */
  requests: readonly ChangeRequestView[];
  requesting: boolean;
  onRequest(body: ChangeRequestCreateBody): Promise<boolean>;
}

const markFailure = (e: unknown) =>
  e instanceof ApiError
    ? e.status === 412
      ? 'That answer changed, or someone else marked it, since this page read it. It is shown as it is now: check it, then mark it again.'
      : referencedMessage(e)
    : 'The mark was not saved. Try again.';

const openRequestOn = (requests: readonly ChangeRequestView[], a: ReviewAnswerView) =>
  requests.some((r) => r.status === 'open' && (a.file_id ? r.target === 'file' && r.file_id === a.file_id : r.target === 'answer' && r.field_name === a.field_name));

const answerTarget = (a: ReviewAnswerView): ChangeRequestCreateBody['target'] =>
  a.file_id
    ? { kind: 'file', schema_key: a.schema_key, field_key: a.field_key, file_id: a.file_id, item_id: a.item_id }
    : { kind: 'answer', schema_key: a.schema_key, field_key: a.field_key, item_id: a.item_id };

/**
 * Review mode: one section at a time, every answer (and every attached file) with "Looks right" and "Request
 * a change", and the progress "Reviewed N of M". Its data is read when it opens, never with the form's page.
 * "Looks right" is a toggle that stays where it is, so focus stays on it after marking.
 */
export function ReviewMode({ apiBase, applicationId, requests, requesting, onRequest }: Props) {
  const id = useId();
  const { data: marks, isError, refetch } = useQuery(reviewMarksQuery(apiBase, applicationId));
  const mark = useReviewMark(apiBase, applicationId);
  const [sectionKey, setSectionKey] = useState<string | null>(null);
  const [asking, setAsking] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const askButtons = useRef(new Map<string, HTMLButtonElement>());

  if (isError && !marks) {
    return (
      <div className="review-mode">
        <p className="form-error" role="alert">
          The answers to review could not be loaded.
        </p>
        <button type="button" onClick={() => void refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (!marks) return <p className="review-mode muted">Loading the answers to review…</p>;
  const sections = marks.sections;
  const index = Math.max(0, sections.findIndex((s) => s.section_key === sectionKey));
  const section = sections[index];

  const toggle = async (a: ReviewAnswerView) => {
    setFailure(null);
    try {
      await mark.mutateAsync({ answer: a, looksRight: !a.mark });
    } catch (e) {
      setFailure(markFailure(e));
    }
  };
  const closeAsk = (key: string) => {
    setAsking(null);
    // Back to the button that opened it, which stays in place.
    requestAnimationFrame(() => askButtons.current.get(key)?.focus());
  };
  const askButton = (key: string, describedBy: string, label = 'Request a change') => (
    <button
      type="button"
      className="secondary"
      aria-expanded={asking === key}
      aria-describedby={describedBy}
      ref={(el) => {
        if (el) askButtons.current.set(key, el);
        else askButtons.current.delete(key);
      }}
      onClick={() => setAsking(asking === key ? null : key)}
    >
      {label}
    </button>
  );

  return (
    <div className="review-mode">
      <p role="status" className="review-progress">
        Reviewed {marks.reviewed} of {marks.total}
      </p>
      <progress className="review-meter" max={Math.max(1, marks.total)} value={marks.reviewed} aria-hidden="true" />
      {sections.length === 0 ? (
        <p>There are no answers to review yet.</p>
      ) : (
        <>
          <div className="review-section-pick">
            <label htmlFor={`${id}-section`}>Section to review</label>
            <select id={`${id}-section`} value={section?.section_key} onChange={(e) => (setAsking(null), setSectionKey(e.target.value))}>
              {sections.map((s) => (
                <option key={s.section_key} value={s.section_key}>
                  {s.label} ({s.reviewed} of {s.total} reviewed)
                </option>
              ))}
            </select>
            {index + 1 < sections.length && (
              <button type="button" className="secondary" onClick={() => (setAsking(null), setSectionKey(sections[index + 1]!.section_key))}>
                Next section
              </button>
            )}
          </div>
          {section && (
            <section aria-labelledby={`${id}-title`}>
              <h3 id={`${id}-title`}>
                {section.label}: {section.reviewed} of {section.total} reviewed
              </h3>
              <ul className="review-answers" aria-label={`Answers in ${section.label}`}>
                {section.answers.map((a, i) => (
                  <AnswerRow
                    key={a.key}
                    answer={a}
                    labelId={`${id}-a${i}`}
                    busy={mark.isPending}
                    asked={openRequestOn(requests, a)}
                    onToggle={() => void toggle(a)}
                    askButton={askButton(a.key, `${id}-a${i}`)}
                    form={
                      asking === a.key && (
                        <InlineRequestForm what={a.label} target={answerTarget(a)} busy={requesting} onRequest={onRequest} onClose={() => closeAsk(a.key)} />
                      )
                    }
                  />
                ))}
              </ul>
              {section.items.length > 0 && (
                <ItemRows
                  items={section.items}
                  idPrefix={`${id}-i`}
                  requests={requests}
                  asking={asking}
                  askButton={askButton}
                  form={(item) => (
                    <InlineRequestForm
                      what={item.label}
                      target={{ kind: 'item', block_key: item.block_key, item_id: item.item_id }}
                      busy={requesting}
                      onRequest={onRequest}
                      onClose={() => closeAsk(`item:${item.item_id}`)}
                    />
                  )}
                />
              )}
            </section>
          )}
        </>
      )}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
    </div>
  );
}

interface RowProps {
  answer: ReviewAnswerView;
  labelId: string;
  busy: boolean;
  asked: boolean;
  onToggle(): void;
  askButton: ReactNode;
  form: ReactNode;
}

function AnswerRow({ answer: a, labelId, busy, asked, onToggle, askButton, form }: RowProps) {
  return (
    <li className={a.mark ? 'review-answer marked' : 'review-answer'}>
      <p id={labelId} className="review-answer-label">
        {a.label}
      </p>
      <p className="review-answer-value">{a.value_text}</p>
      {a.mark && (
        <p className="muted">
          Looks right{a.mark.by ? ` (${a.mark.by}, ` : ' ('}
          <When iso={a.mark.at} />)
        </p>
      )}
      {a.changed_since_mark && <p className="review-changed">Changed since it was marked: review it again.</p>}
      {asked && <p className="review-asked">A change is requested.</p>}
      <p className="review-buttons">
        {/* Not disabled while a mark is saved: a disabled button would drop the keyboard's focus. */}
        <button type="button" aria-pressed={a.mark !== null} aria-describedby={labelId} aria-disabled={busy || undefined} onClick={() => !busy && onToggle()}>
          Looks right
        </button>
        {askButton}
      </p>
      {form}
    </li>
  );
}

function ItemRows({
  items,
  idPrefix,
  requests,
  asking,
  askButton,
  form,
}: {
  items: readonly ReviewItemView[];
  idPrefix: string;
  requests: readonly ChangeRequestView[];
  asking: string | null;
  askButton(key: string, describedBy: string, label?: string): ReactNode;
  form(item: ReviewItemView): ReactNode;
}) {
  return (
    <ul className="review-answers" aria-label="Items in lists">
      {items.map((item, i) => (
        <li key={item.item_id} className="review-answer">
          <p id={`${idPrefix}${i}`} className="review-answer-label">
            {item.label}
          </p>
          {requests.some((r) => r.status === 'open' && r.target === 'item' && r.item_id === item.item_id) && <p className="review-asked">A change is requested.</p>}
          <p className="review-buttons">{askButton(`item:${item.item_id}`, `${idPrefix}${i}`, 'Request a change to this item')}</p>
          {asking === `item:${item.item_id}` && form(item)}
        </li>
      ))}
    </ul>
  );
}
