'use client';

import { useRouter } from 'next/navigation';
import { useSignOut } from '@/lib/queries/mutations/use-sign-out';

export function SignOutButton() {
  const router = useRouter();
  const signOut = useSignOut();
  return (
    <button
      type="button"
      className="link-button"
      // Stays disabled once pressed: whatever the reply, the page goes to the sign-in.
      disabled={!signOut.isIdle}
      onClick={() =>
        signOut.mutate(undefined, {
          onSettled: () => {
            router.replace('/sign-in');
            router.refresh();
          },
        })
      }
    >
      Sign out
    </button>
  );
}
