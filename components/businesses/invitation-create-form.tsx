'use client';

import { useState } from 'react';
import { get, type FieldPath } from 'react-hook-form';
import { ApiError, referencedMessage } from '@/lib/api/api-error';
import { emptyInvitationForm, InvitationForm, type InvitationFormValues } from '@/lib/bff/invitation-form';
import type { InvitationCreated } from '@/lib/bff/invitations';
import { useCreateInvitation } from '@/lib/queries/mutations/use-create-invitation';
import { SubmitButton } from '../ui/submit-button';
import { TextField } from '../ui/text-field';
import { useZodForm } from '../ui/use-zod-form';

type FieldName = FieldPath<InvitationFormValues>;
const FIELDS: readonly FieldName[] = ['client_name', 'client_email', 'ttl_hours', 'due_date'];
const isField = (p: string | undefined): p is FieldName => FIELDS.some((f) => f === p);

interface Props {
  applicationId: string;
  onCreated(created: InvitationCreated): void;
}

/** Invites the application's client: an optional name and email (the link is mailed there unless staff copy it only) and how long the link lasts. */
export function InvitationCreateForm({ applicationId, onCreated }: Props) {
  const create = useCreateInvitation(applicationId);
  const [problem, setProblem] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useZodForm(InvitationForm, emptyInvitationForm());
  const onSubmit = handleSubmit(
    (body) => {
      setProblem(null);
      create.mutate(body, {
        onSuccess: (created) => {
          reset(emptyInvitationForm());
          onCreated(created);
        },
        onError: (e) => {
          if (!(e instanceof ApiError)) {
            setProblem('The invitation was not created. Try again.');
            return;
          }
          for (const d of e.details) if (isField(d.parameter)) setError(d.parameter, { type: 'server', message: d.message });
          setProblem(`The invitation was not created. ${referencedMessage(e)}`);
        },
      });
    },
    () => setProblem('The invitation was not created: check the fields marked below.'),
  );
  const err = (name: FieldName): string | undefined => (get(formState.errors, name) as { message?: string } | undefined)?.message;

  return (
    <form onSubmit={onSubmit} noValidate className="stack biz-invite-form" aria-labelledby="biz-invite-form-title">
      <h3 id="biz-invite-form-title">Invite the client</h3>
      <div role="alert">{problem && <p className="form-error">{problem}</p>}</div>
      <TextField id="biz-invite-name" label="Client’s name (optional)" autoComplete="off" registration={register('client_name')} error={err('client_name')} />
      <TextField
        id="biz-invite-email"
        label="Client’s email address (optional)"
        type="email"
        autoComplete="off"
        registration={register('client_email')}
        error={err('client_email')}
      />
      <div className="field checkbox-field">
        <input id="biz-invite-link-only" type="checkbox" {...register('link_only')} />
        <label htmlFor="biz-invite-link-only">Copy the link only: do not email it to the client</label>
      </div>
      <div className="field checkbox-field">
        <input id="biz-invite-client-submits" type="checkbox" aria-describedby="biz-invite-client-submits-hint" {...register('client_submits')} />
        <label htmlFor="biz-invite-client-submits">The client submits to the Portal without a review</label>
        <p id="biz-invite-client-submits-hint" className="field-hint">
          Unticked, the client sends the application for review, and you submit it or ask for changes.
        </p>
      </div>
      <TextField
        id="biz-invite-ttl"
        label="Link valid for (hours)"
        type="number"
        hint="168 hours is one week; at most 720 (30 days)."
        required
        registration={register('ttl_hours')}
        error={err('ttl_hours')}
      />
      <TextField
        id="biz-invite-due"
        label="Due date (optional)"
        type="date"
        hint="Reminders follow the settings’ schedule; on the due date an overdue reminder goes, and you are told."
        registration={register('due_date')}
        error={err('due_date')}
      />
      <SubmitButton busy={create.isPending} busyLabel="Creating the link…" label="Create invitation link" />
    </form>
  );
}
