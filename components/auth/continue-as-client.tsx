'use client';

import { useRouter } from 'next/navigation';
import { ApiError, referencedMessage } from '@/lib/api/api-error';
import { useAcceptInvitation } from '@/lib/queries/mutations/use-accept-invitation';

/**
 * The one way a signed-in browser becomes an invitation's client: a deliberate press, sent as a same-origin
 * write. Then a full page load, so the header and every page read the new session.
 */
export function ContinueAsClient({ token }: { token: string }) {
  const router = useRouter();
  const accept = useAcceptInvitation();
  return (
    <div className="stack">
      <p className="actions">
        <button
          type="button"
          disabled={!accept.isIdle && !accept.isError}
          onClick={() =>
            accept.mutate(
              { token },
              {
                onSuccess: ({ location }) => window.location.assign(location),
                // A link that stopped working meanwhile: the page that explains why (the session is unchanged).
                onError: (e) => {
                  const why = e instanceof ApiError ? e.details[0]?.code?.replace(/^invitation_/, '') : undefined;
                  if (e instanceof ApiError && e.status === 404) router.replace(`/invite/invalid?reason=${encodeURIComponent(why ?? 'unknown')}`);
                },
              },
            )
          }
        >
          {accept.isPending || accept.isSuccess ? 'Opening the application…' : 'Continue as the invited client'}
        </button>
      </p>
      {accept.isError && !(accept.error instanceof ApiError && accept.error.status === 404) && (
        <p className="form-error" role="alert">
          The invitation could not be opened. {accept.error instanceof ApiError ? referencedMessage(accept.error) : 'Try again.'}
        </p>
      )}
    </div>
  );
}
