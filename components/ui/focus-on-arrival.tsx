'use client';

import { useEffect, useRef, type ReactNode } from 'react';

/** A page's h1 that takes focus when the page opens, so a screen reader starts at what just happened. */
export function FocusedHeading({ id, children }: { id?: string; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 id={id} ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}
