'use client';

import type { ReactNode } from 'react';
import { fieldForName, type FieldModel, type FormModel } from '@/lib/forms';
import { useFormEnv } from './runtime-context';

/** "Owners 2 – Full name": where a name lives, for lists that link to fields. */
export function labelOfName(model: FormModel, name: string): string {
  const field: FieldModel | undefined = fieldForName(model, name);
  if (!field) return name;
  return field.question.fields.length > 1 ? `${field.question.label} – ${field.label}` : field.question.label;
}

/** A link that opens the field's section and focuses it; named by the field's label unless told otherwise. */
export function FieldLink({ name, children }: { name: string; children?: ReactNode }) {
  const { runtime, goToField } = useFormEnv();
  return (
    <a href={`#${name}`} onClick={(e) => (e.preventDefault(), goToField(name))}>
      {children ?? labelOfName(runtime.model, name)}
    </a>
  );
}
