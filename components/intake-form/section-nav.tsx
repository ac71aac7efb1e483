'use client';

import { useMemo } from 'react';
import { useDisclosure } from '../ui/use-disclosure';
import { useFormEnv, useRuntime } from './runtime-context';

/**
 * The sections with their completion. Progress follows the runtime's progressVersion, which settles a
 * moment after typing stops, so a keystroke never waits for the count of a 1,000-field form.
 * On a narrow screen the list is a disclosure behind one button that names the current section (the CSS
 * hides the button on wide screens, where the list always shows), so the form starts near the top.
 */
export function SectionNav({ current, onOpen }: { current: string; onOpen(sectionKey: string): void }) {
  const { runtime } = useFormEnv();
  const version = useRuntime((r) => r.progressVersion);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the runtime mutates in place; version says when
  const progress = useMemo(() => runtime.progress(), [runtime, version]);
  const { open, setOpen, toggle, onKeyDown } = useDisclosure();
  const currentLabel = progress.sections.find((s) => s.sectionKey === current)?.label;


  return (
    <nav aria-label="Sections" className="section-nav" data-open={open} onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        className="section-nav-toggle secondary"
        aria-expanded={open}
        aria-controls="section-nav-panel"
        onClick={() => setOpen((o) => !o)}
      >
        <span>Sections</span>
        {currentLabel && <span className="section-nav-current">: {currentLabel}</span>}
        <span className="section-progress"> ({progress.percent}%)</span>
      </button>
      <div id="section-nav-panel" className="section-nav-panel">
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
                    setOpen(false);
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
      </div>
    </nav>
  );
}
