/** The outcome of an action: a problem is announced at once (alert), a success politely (status). */
export type NoticeState = { kind: 'done' | 'problem'; text: string } | null;

/** Both regions are always there: screen readers announce changes only to regions they already know. */
export function Notice({ notice }: { notice: NoticeState }) {
  return (
    <>
      <div role="alert">{notice?.kind === 'problem' && <p className="notice warning">{notice.text}</p>}</div>
      <div role="status">{notice?.kind === 'done' && <p className="notice success">{notice.text}</p>}</div>
    </>
  );
}
