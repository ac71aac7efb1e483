import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { authApi } from '@/lib/api/endpoints';

/** Ends the session. */
export function useSignOut() {
  return useMutation({
    mutationFn: () => callApi(authApi.signOut.POST),
  });
}
