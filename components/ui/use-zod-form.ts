import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';

/** A react-hook-form form checked by a zod schema: the inputs as typed, the schema's output on submit. */
export function useZodForm<Input extends FieldValues, Output extends FieldValues>(schema: z.ZodType<Output, Input>, defaultValues: DefaultValues<Input>) {
  return useForm<Input, unknown, Output>({ resolver: zodResolver(schema), defaultValues });
}
