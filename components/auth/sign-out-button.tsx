'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiFetch } from '@/lib/api/api-fetch';

export function SignOutButton() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="link-button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await apiFetch('/api/auth/sign-out', { method: 'POST' });
        } finally {
          router.replace('/sign-in');
          router.refresh();
        }
      }}
    >
      Sign out
    </button>
  );
}
