import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';

/** Ends the session. */
export function useSignOut() {
  return useMutation({
    mutationFn: () => apiFetch(apiPaths.signOut(), { method: 'POST' }),
  });
}
