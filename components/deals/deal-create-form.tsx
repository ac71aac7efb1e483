'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useWatch, type FieldPath } from 'react-hook-form';
import { ApiError, referencedMessage } from '@/lib/api/api-error';
import { DealCreateForm as DealCreateFormSchema, dealCreateInputOf, type DealCreateForm as DealCreateFormValues } from '@/lib/bff/deals';
import { businessChoicesQuery, recipientsQuery } from '@/lib/queries/deals';
import { useCreateDeal } from '@/lib/queries/mutations/use-create-deal';
import { SubmitButton } from '../ui/submit-button';
import { useZodForm } from '../ui/use-zod-form';
import { ChoiceField } from './choice-field';
import { dealHref } from './deal-labels';

/** Which form field an upstream refusal is about (its `parameter`, or the field it names). */
const FIELDS: ReadonlySet<string> = new Set(['business_id', 'name', 'recipient_id']);

interface Props {
  /** The business to preselect (the page was opened from a business's deals). */
  initialBusiness: { id: string; name: string | null } | null;
  /** The Portal lists recipients to make a deal for; without them a deal is for the Portal itself. */
  recipients: boolean;
}

const businessLabel = (b: { id: string; name: string | null }) => b.name ?? `Unnamed business (${b.id})`;

/** Create a deal: its business, its name, and whom it is for (the Portal itself or a recipient). */
export function DealCreateForm({ initialBusiness, recipients: recipientsListed }: Props) {
  const router = useRouter();
  const create = useCreateDeal();
  const [problem, setProblem] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<string | null>(null);
  const defaults: DealCreateFormValues = { business_id: initialBusiness?.id ?? '', name: '', for: 'portal', recipient_id: '' };
  const { register, handleSubmit, control, setError, formState } = useZodForm(DealCreateFormSchema, defaults);
  const { errors } = formState;
  const forWhom = useWatch({ control, name: 'for' });

  const businesses = useInfiniteQuery(businessChoicesQuery());
  // Read only once a recipient is to be chosen: a deal for the Portal itself needs none.
  const recipients = useInfiniteQuery({ ...recipientsQuery(), enabled: recipientsListed && forWhom === 'recipient' });
  const businessOptions = (businesses.data?.pages ?? []).flatMap((p) => p.items);
  // The preselected business may be on a page not loaded yet: it is offered first either way.
  if (initialBusiness && !businessOptions.some((b) => b.id === initialBusiness.id)) businessOptions.unshift(initialBusiness);
  const recipientOptions = (recipients.data?.pages ?? []).flatMap((p) => p.items);

  const loadMore = async (which: 'businesses' | 'recipients') => {
    const q = which === 'businesses' ? businesses : recipients;
    const before = which === 'businesses' ? businessOptions.length : recipientOptions.length;
    const res = await q.fetchNextPage();
    const after = (res.data?.pages ?? []).flatMap((p) => p.items).length;
    setLoaded(`${Math.max(0, after - before)} more ${which} loaded.`);
  };

  const onSubmit = handleSubmit((values) => {
    setProblem(null);
    create.mutate(dealCreateInputOf(values), {
      onSuccess: (deal) => router.push(dealHref(deal.id, values.business_id)),
      onError: (e) => {
        if (!(e instanceof ApiError)) {
          setProblem('Creating the deal failed. Try again.');
          return;
        }
        let placed = false;
        for (const d of e.details) {
          const field = d.parameter ?? d.field_key;
          if (field && FIELDS.has(field)) {
            setError(field as FieldPath<DealCreateFormValues>, { message: d.message }, { shouldFocus: !placed });
            placed = true;
          }
        }
        setProblem(referencedMessage(e));
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="stack" aria-labelledby="new-deal-title">
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
      <ChoiceField
        id="business_id"
        label="Business"
        plural="businesses"
        placeholder="Choose a business"
        options={businessOptions.map((b) => ({ id: b.id, label: businessLabel(b) }))}
        list={businesses}
        onLoadMore={() => void loadMore('businesses')}
        registration={register('business_id')}
        error={errors.business_id?.message}
      />

      <div className="field">
        <label htmlFor="name">Deal name</label>
        <input id="name" type="text" autoComplete="off" aria-invalid={errors.name ? true : undefined} aria-describedby={errors.name ? 'name-error' : undefined} {...register('name')} />
        {errors.name && (
          <p id="name-error" className="field-error" role="alert">
            {errors.name.message}
          </p>
        )}
      </div>

      {recipientsListed ? (
        <fieldset>
          <legend>Who is the deal for?</legend>
          <div className="options">
            <label className="option">
              <input type="radio" value="portal" {...register('for')} /> The Portal itself
            </label>
            <label className="option">
              <input type="radio" value="recipient" {...register('for')} /> A recipient
            </label>
          </div>
          {forWhom === 'recipient' && (
            <ChoiceField
              id="recipient_id"
              label="Recipient"
              plural="recipients"
              placeholder="Choose a recipient"
              options={recipientOptions.map((r) => ({ id: r.id, label: r.name }))}
              list={recipients}
              onLoadMore={() => void loadMore('recipients')}
              registration={register('recipient_id')}
              error={errors.recipient_id?.message}
            />
          )}
        </fieldset>
      ) : (
        <p>The deal is for the Portal itself: this Portal does not list recipients to make one for.</p>
      )}

      <p role="status" className="visually-hidden">
        {loaded ?? ''}
      </p>
      <SubmitButton busy={create.isPending} busyLabel="Creating the deal…" label="Create the deal" />
    </form>
  );
}
