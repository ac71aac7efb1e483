'use client';

import { forwardRef, useImperativeHandle, useRef } from 'react';

const SHORTCUTS: ReadonlyArray<[keys: string, what: string]> = [
  ['j or ↓', 'Next suggestion waiting for review'],
  ['k or ↑', 'Previous suggestion waiting for review'],
  ['a', 'Accept the suggestion in focus'],
  ['d', 'Dismiss the suggestion in focus'],
  ['?', 'Show these shortcuts'],
];

/** The list of the review queue's keyboard shortcuts, in a modal dialog (Escape or Close shuts it). */
export const ShortcutHelp = forwardRef<{ open(): void }>(function ShortcutHelp(_props, ref) {
  const dialog = useRef<HTMLDialogElement>(null);
  useImperativeHandle(ref, () => ({ open: () => dialog.current?.showModal() }), []);
  return (
    <dialog ref={dialog} className="autofill-dialog" aria-labelledby="autofill-shortcuts-title">
      <h2 id="autofill-shortcuts-title">Keyboard shortcuts</h2>
      <p className="muted">They work when the focus is not in a text field; a and d act on the suggestion in focus.</p>
      <dl className="autofill-shortcuts">
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  );
});
