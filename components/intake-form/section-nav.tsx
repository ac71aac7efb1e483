'use client';

import { useMemo } from 'react';
import { useFormEnv, useRuntime } from './runtime-context';

/**
 * The sections with their completion. Progress follows the runtime's progressVersion, which settles a
 * moment after typing stops, so a keystroke never waits for the count of a 1,000-field form.
 */
export function SectionNav({ current, onOpen }: { current: string; onOpen(sectionKey: string): void }) {
  const { runtime } = useFormEnv();
  const version = useRuntime((r) => r.progressVersion);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the runtime mutates in place; version says when
  const progress = useMemo(() => runtime.progress(), [runtime, version]);
  return (
    <nav aria-label="Sections" className="section-nav">
      <p className="overall">
        <strong>{progress.percent}%</strong> of required answers given ({progress.answered} of {progress.total})
      </p>
      <ol>
        {progress.sections.map((s) => {
          const here = s.sectionKey === current;
          return (
            <li key={s.sectionKey} className={here ? 'current' : undefined}>
              <a
                href={`?section=${encodeURIComponent(s.sectionKey)}`}
                aria-current={here ? 'step' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  onOpen(s.sectionKey);
                }}
              >
                <span className="section-label">{s.label}</span>
                <span className="section-progress">
                  {s.complete ? (
                    <>
                      <span aria-hidden="true">✓</span>
                      <span className="visually-hidden">complete</span>
                    </>
                  ) : (
                    `${s.answered} of ${s.total}`
                  )}
                </span>
              </a>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
