'use client';

import { useRouter } from 'next/navigation';
import { ApiError } from '@/lib/api/api-error';
import { SignInBody } from '@/lib/bff/auth';
import { useSignIn } from '@/lib/queries/mutations/use-sign-in';
import { TextField } from '../ui/text-field';
import { useZodForm } from '../ui/use-zod-form';

export function SignInForm({ next }: { next: string }) {
  const router = useRouter();
  const signIn = useSignIn();
  const { register, handleSubmit, formState } = useZodForm(SignInBody, { email: '', password: '' });
  const { errors } = formState;
  const problem = signIn.error ? (signIn.error instanceof ApiError ? signIn.error.message : 'Signing in failed. Try again.') : null;

  const onSubmit = handleSubmit((values) =>
    signIn.mutate(values, {
      onSuccess: () => {
        router.replace(next);
        router.refresh();
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="stack" aria-describedby={problem ? 'sign-in-problem' : undefined}>
      {problem && (
        <p id="sign-in-problem" role="alert" className="form-error">
          {problem}
        </p>
      )}
      <TextField id="email" label="Email address" type="email" autoComplete="username" registration={register('email')} error={errors.email?.message} />
      <TextField id="password" label="Password" type="password" autoComplete="current-password" registration={register('password')} error={errors.password?.message} />
      <button type="submit" disabled={signIn.isPending}>
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
