import { Fragment } from 'react';

/** An email address that may wrap after its "@" and its dots, never between two of its letters. */
export function BreakableEmail({ email }: { email: string }) {
  const parts = email.split(/(?<=[@.])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </>
  );
}
