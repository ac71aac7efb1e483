'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { get, type FieldPath } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError, outcomeUnknown } from '@/lib/api/api-error';
import { businessCreateFormSchema, emptyBusinessCreateForm, type BusinessCreateFormValues } from '@/lib/bff/business-create-form';
import type { BusinessCreatedView, PortalView } from '@/lib/bff/businesses';
import { portalQuery } from '@/lib/queries/business';
import { useCreateBusiness } from '@/lib/queries/mutations/use-create-business';
import { SubmitButton } from '../ui/submit-button';
import { TextField } from '../ui/text-field';
import { useZodForm } from '../ui/use-zod-form';
import { DocumentPicker } from './document-picker';

type FieldName = FieldPath<BusinessCreateFormValues>;
const FIELDS: readonly FieldName[] = [
  'name',
  'source_channel_id',
  'contact.full_name',
  'contact.email',
  'contact.phone_number',
  'contact.company_name',
  'contact.job_title',
];
const isField = (p: string | undefined): p is FieldName => FIELDS.some((f) => f === p);

interface Props {
  initialPortal: PortalView;
  files: readonly File[];
  onFilesChange(files: File[]): void;
  onCreated(created: BusinessCreatedView): void;
}

export function BusinessCreateForm({ initialPortal, files, onFilesChange, onCreated }: Props) {
  const { data: portal } = useQuery({ ...portalQuery(), initialData: initialPortal });
  const sourceChannels = portal.key.kind === 'source' ? portal.key.channel_slugs : null;
  const schema = useMemo(() => businessCreateFormSchema(sourceChannels), [sourceChannels]);
  const [problem, setProblem] = useState<{ message: string; more: string[] } | null>(null);
  const create = useCreateBusiness();
  const { register, handleSubmit, setError, setFocus, formState } = useZodForm(schema, emptyBusinessCreateForm());

  function send(body: z.output<typeof schema>) {
    setProblem(null);
    create.mutate(body, { onSuccess: onCreated, onError: showRefusal });
  }

  const onSubmit = (e: FormEvent) =>
    handleSubmit(send, () => setProblem({ message: 'The business was not created: check the fields marked below.', more: [] }))(e);

  function showRefusal(e: unknown) {
    if (!(e instanceof ApiError)) {
      setProblem({ message: 'The business could not be created. Try again.', more: [] });
      return;
    }
    const more: string[] = [];
    let first: FieldName | null = null;
    for (const d of e.details) {
      if (isField(d.parameter)) {
        setError(d.parameter, { type: 'server', message: d.message });
        first ??= d.parameter;
      } else {
        more.push(d.message);
      }
    }
    const retry = outcomeUnknown(e) ? ' Submitting again is safe: the business will not be created twice.' : '';
    setProblem({ message: `The business was not created. ${e.message}${retry}${e.requestId ? ` (reference ${e.requestId})` : ''}`, more });
    if (first) setFocus(first);
  }

  const err = (name: FieldName): string | undefined => (get(formState.errors, name) as { message?: string } | undefined)?.message;

  return (
    <form
      onSubmit={onSubmit}
      // What the banner says is about the last try: once a field changes, it no longer holds.
      onChange={() => problem && setProblem(null)}
      noValidate
      className="stack biz-create"
      aria-describedby={problem ? 'biz-create-problem' : undefined}
    >
      <div role="alert" id="biz-create-problem">
        {problem && (
          <div className="form-error">
            <p>{problem.message}</p>
            {problem.more.length > 0 && (
              <ul>
                {problem.more.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      <TextField id="biz-name" label="Business name" required autoComplete="organization" registration={register('name')} error={err('name')} />
      {sourceChannels && (
        <div className="field">
          <label htmlFor="biz-source">
            Lead source<span className="required-mark"> (required)</span>
          </label>
          <select
            id="biz-source"
            aria-required
            aria-invalid={err('source_channel_id') ? true : undefined}
            aria-describedby={err('source_channel_id') ? 'biz-source-error' : undefined}
            {...register('source_channel_id')}
          >
            <option value="">Choose the channel the lead came from</option>
            {sourceChannels.map((slug) => (
              <option key={slug} value={slug}>
                {slug}
              </option>
            ))}
          </select>
          {err('source_channel_id') && (
            <p id="biz-source-error" className="field-error">
              {err('source_channel_id')}
            </p>
          )}
        </div>
      )}
      <fieldset className="biz-contact" aria-describedby="biz-contact-hint">
        <legend>Contact (optional)</legend>
        <p id="biz-contact-hint" className="field-hint">
          The person the Portal invites to complete the application. If you add one, give a full name and an email address.
        </p>
        <TextField id="biz-contact-name" label="Full name" autoComplete="name" registration={register('contact.full_name')} error={err('contact.full_name')} />
        <TextField id="biz-contact-email" label="Email address" type="email" autoComplete="email" registration={register('contact.email')} error={err('contact.email')} />
        <TextField id="biz-contact-phone" label="Phone number" type="tel" autoComplete="tel" registration={register('contact.phone_number')} error={err('contact.phone_number')} />
        <TextField id="biz-contact-company" label="Company" autoComplete="organization" registration={register('contact.company_name')} error={err('contact.company_name')} />
        <TextField id="biz-contact-title" label="Job title" autoComplete="organization-title" registration={register('contact.job_title')} error={err('contact.job_title')} />
      </fieldset>
      <DocumentPicker files={files} onChange={onFilesChange} disabled={create.isPending} />
      <SubmitButton busy={create.isPending} busyLabel="Creating the business…" label="Create business" />
    </form>
  );
}
