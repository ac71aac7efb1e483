'use client';

import { useState } from 'react';

/**
 * A message's body behind "Read the message". Its frame exists only while the disclosure is open: a page of
 * closed messages then holds no frames at all, so nothing (a test's accessibility checker, a browser extension)
 * probes script-less sandboxed documents it cannot run in, and a long Outbox does not lay out every mail at once.
 */
export function OutboxMessageBody({ subject, html, text }: { subject: string; html: string; text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Read the message</summary>
      {open && <iframe title={`The message “${subject}” as formatted mail`} sandbox="" srcDoc={html} className="outbox-html" />}
      <h3>Plain text</h3>
      <pre className="outbox-text">{text}</pre>
    </details>
  );
}
