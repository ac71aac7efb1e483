'use client';

/** A failure while rendering the form: say so, keep the page, offer another try (edits stay on the device). */
export default function DealApplicationError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="notice warning" role="alert">
      <h1>The deal application could not be shown</h1>
      <p>Any answers you typed are kept on this device and will be sent when the form opens again.</p>
      {error.digest && <p className="muted">Reference {error.digest}</p>}
      <button type="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
