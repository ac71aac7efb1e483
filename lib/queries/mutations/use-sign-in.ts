import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { authApi } from '@/lib/api/endpoints';
import type { SignInBody } from '@/lib/bff/auth';

/** Signs in with email and password; the BFF sets the session cookie. */
export function useSignIn() {
  return useMutation({
    mutationFn: (body: SignInBody) => callApi(authApi.signIn.POST, { body }),
  });
}
