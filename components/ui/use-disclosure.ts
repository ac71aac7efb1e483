'use client';

import { useRef, useState, type KeyboardEvent } from 'react';

/** An open/closed disclosure whose Escape closes it and returns focus to its toggle button. */
export function useDisclosure() {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    e.preventDefault();
    setOpen(false);
    toggle.current?.focus();
  };
  return { open, setOpen, toggle, onKeyDown };
}
