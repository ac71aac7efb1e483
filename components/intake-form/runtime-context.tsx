'use client';

import { createContext, useContext, useSyncExternalStore } from 'react';
import type { FormBase } from '@/lib/api/form-base';
import type { FormRuntime } from '@/components/intake-form/runtime/form-runtime';

export interface FormEnv {
  runtime: FormRuntime;
  apiBase: FormBase;
  /** False for reviewers and once the application is submitted. */
  editable: boolean;
  /** Opens the field's section and focuses it (links from the missing list, conflicts, notices). */
  goToField(name: string): void;
  /** The form names of answers prefilled from elsewhere (a project's criteria from the intake application). */
  prefilled: ReadonlySet<string>;
  /** Changes staff asked for, by the form name of their field: the comment the field is described by. */
  changeRequests?: ReadonlyMap<string, string>;
}

const FormEnvContext = createContext<FormEnv | null>(null);
export const FormEnvProvider = FormEnvContext.Provider;

export function useFormEnv(): FormEnv {
  const env = useContext(FormEnvContext);
  if (env === null) throw new Error('useFormEnv outside the intake form');
  return env;
}

/**
 * A slice of the runtime's state. The selector must return something stable (a primitive, or an object
 * the runtime keeps) so that a change elsewhere does not re-render this component.
 */
export function useRuntime<T>(select: (runtime: FormRuntime) => T): T {
  const { runtime } = useFormEnv();
  return useSyncExternalStore(
    runtime.subscribe,
    () => select(runtime),
    () => select(runtime),
  );
}
