import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { SignInBody } from '@/lib/bff/auth';

/** Signs in with email and password; the BFF sets the session cookie. */
export function useSignIn() {
  return useMutation({
    mutationFn: (body: SignInBody) => apiFetch(apiPaths.signIn(), { method: 'POST', body }),
  });
}
