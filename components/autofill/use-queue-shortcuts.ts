'use client';

import { useEffect, useRef, type RefObject } from 'react';

export interface QueueShortcuts {
  /** The queue: arrow keys move only while the focus is in it (elsewhere they scroll as usual). */
  container: RefObject<HTMLElement | null>;
  /** inQueue: whether the focus is in the queue now (if not, the move starts from the card last in focus). */
  onMove(delta: 1 | -1, inQueue: boolean): void;
  onAccept(): void;
  onDismiss(): void;
  onHelp(): void;
}

/** Where typing goes: shortcuts must never take a keystroke meant for a field. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select, [contenteditable]') !== null;
}

/**
 * The review queue's keys: j / ↓ next, k / ↑ previous, a accept, d dismiss, ? help. Ignored while typing,
 * with a modifier held, or while a dialog is open.
 */
export function useQueueShortcuts(handlers: QueueShortcuts) {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    function onKeyDown(e: KeyboardEvent) {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (document.querySelector('dialog[open]')) return;
      const h = latest.current;
      const inQueue = h.container.current?.contains(document.activeElement) ?? false;
      switch (e.key) {
        case 'j':
          h.onMove(1, inQueue);
          break;
        case 'k':
          h.onMove(-1, inQueue);
          break;
        case 'ArrowDown':
          if (!inQueue) return;
          h.onMove(1, inQueue);
          break;
        case 'ArrowUp':
          if (!inQueue) return;
          h.onMove(-1, inQueue);
          break;
        case 'a':
          if (!inQueue) return;
          h.onAccept();
          break;
        case 'd':
          if (!inQueue) return;
          h.onDismiss();
          break;
        case '?':
          h.onHelp();
          break;
        default:
          return;
      }
      e.preventDefault();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
