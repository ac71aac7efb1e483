'use client';

import { useEffect, useRef } from 'react';
import { useFormContext } from 'react-hook-form';
import type { SectionModel } from '@/lib/forms';
import { GroupView } from './group-view';
import { QuestionView } from './question-view';
import { useRuntime } from './runtime-context';

/** The questions and groups of one section, in the contract's order. */
export function SectionView({ section, focusHeading }: { section: SectionModel; focusHeading: boolean }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { trigger } = useFormContext();
  const submitTried = useRuntime((r) => r.submitAttempted);

  useEffect(() => {
    if (focusHeading) headingRef.current?.focus();
  }, [section.sectionKey, focusHeading]);

  // After a refused submit, each section shows its problems as soon as it is opened.
  useEffect(() => {
    if (submitTried) void trigger();
  }, [section.sectionKey, submitTried, trigger]);

  return (
    <section aria-labelledby={`section-${section.sectionKey}`} className="form-section">
      <h2 id={`section-${section.sectionKey}`} tabIndex={-1} ref={headingRef}>
        {section.label}
      </h2>
      {section.entries.length === 0 && <p className="muted">Nothing to answer in this section.</p>}
      {section.entries.map((entry) =>
        entry.type === 'question' ? (
          <QuestionView key={entry.question.schemaKey} question={entry.question} itemId={null} />
        ) : (
          <GroupView key={entry.group.blockKey} group={entry.group} parentItemId={null} />
        ),
      )}
    </section>
  );
}
