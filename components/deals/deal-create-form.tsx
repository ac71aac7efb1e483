'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm, useWatch, type FieldPath } from 'react-hook-form';
import { z } from 'zod';
import { ApiError } from '@/lib/api/api-error';
import { apiFetch } from '@/lib/api/api-fetch';
import { DealCreateForm as DealCreateFormSchema, DealView, dealCreateInputOf, type DealCreateForm as DealCreateFormValues } from '@/lib/bff/deals';
import { businessChoicesQuery, dealKey, recipientsQuery } from '@/lib/queries/deals';
import { dealHref } from './deal-labels';

const Created = z.object({ deal: DealView });

/** Which form field an upstream refusal is about (its `parameter`, or the field it names). */
const FIELDS: ReadonlySet<string> = new Set(['business_id', 'name', 'recipient_id']);

interface Props {
  /** The business to preselect (the page was opened from a business's deals). */
  initialBusiness: { id: string; name: string | null } | null;
}

const businessLabel = (b: { id: string; name: string | null }) => b.name ?? `Unnamed business (${b.id})`;

/** Create a deal: its business, its name, and whom it is for (the Portal itself or a recipient). */
export function DealCreateForm({ initialBusiness }: Props) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<DealCreateFormValues, unknown, z.output<typeof DealCreateFormSchema>>({
    resolver: zodResolver(DealCreateFormSchema),
    defaultValues: { business_id: initialBusiness?.id ?? '', name: '', for: 'portal', recipient_id: '' },
  });
  const forWhom = useWatch({ control, name: 'for' });

  const businesses = useInfiniteQuery(businessChoicesQuery());
  const recipients = useInfiniteQuery(recipientsQuery());
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

  const onSubmit = handleSubmit(async (values) => {
    setProblem(null);
    try {
      // One key for this click: a retry the Portal client makes for it reuses the key, a new click does not.
      const reply = await apiFetch('/api/deals', {
        method: 'POST',
        body: dealCreateInputOf(values),
        headers: { 'Idempotency-Key': crypto.randomUUID() },
        schema: Created,
      });
      queryClient.setQueryData(dealKey(reply.deal.id), reply.deal);
      router.push(dealHref(reply.deal.id, values.business_id));
    } catch (e) {
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
      setProblem(`${e.message}${e.requestId ? ` (reference ${e.requestId})` : ''}`);
    }
  });

  const describedBy = (field: string, extra?: string) =>
    [errors[field as keyof typeof errors] ? `${field}-error` : null, extra].filter(Boolean).join(' ') || undefined;

  return (
    <form onSubmit={onSubmit} noValidate className="stack" aria-labelledby="new-deal-title">
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
      <div className="field">
        <label htmlFor="business_id">Business</label>
        <div className="deals-choices">
          <select id="business_id" aria-invalid={errors.business_id ? true : undefined} aria-describedby={describedBy('business_id')} {...register('business_id')}>
            <option value="">{businesses.isPending ? 'Loading businesses…' : 'Choose a business'}</option>
            {businessOptions.map((b) => (
              <option key={b.id} value={b.id}>
                {businessLabel(b)}
              </option>
            ))}
          </select>
          {businesses.hasNextPage && (
            <button type="button" className="secondary" onClick={() => void loadMore('businesses')} disabled={businesses.isFetchingNextPage}>
              Load more businesses
            </button>
          )}
        </div>
        {businesses.error && (
          <p className="field-error" role="alert">
            The businesses could not be loaded: {businesses.error.message}
          </p>
        )}
        {errors.business_id && (
          <p id="business_id-error" className="field-error" role="alert">
            {errors.business_id.message}
          </p>
        )}
      </div>

      <div className="field">
        <label htmlFor="name">Deal name</label>
        <input id="name" type="text" autoComplete="off" aria-invalid={errors.name ? true : undefined} aria-describedby={describedBy('name')} {...register('name')} />
        {errors.name && (
          <p id="name-error" className="field-error" role="alert">
            {errors.name.message}
          </p>
        )}
      </div>

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
          <div className="field">
            <label htmlFor="recipient_id">Recipient</label>
            <div className="deals-choices">
              <select
                id="recipient_id"
                aria-invalid={errors.recipient_id ? true : undefined}
                aria-describedby={describedBy('recipient_id')}
                {...register('recipient_id')}
              >
                <option value="">{recipients.isPending ? 'Loading recipients…' : 'Choose a recipient'}</option>
                {recipientOptions.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
              </select>
              {recipients.hasNextPage && (
                <button type="button" className="secondary" onClick={() => void loadMore('recipients')} disabled={recipients.isFetchingNextPage}>
                  Load more recipients
                </button>
              )}
            </div>
            {recipients.error && (
              <p className="field-error" role="alert">
                The recipients could not be loaded: {recipients.error.message}
              </p>
            )}
            {errors.recipient_id && (
              <p id="recipient_id-error" className="field-error" role="alert">
                {errors.recipient_id.message}
              </p>
            )}
          </div>
        )}
      </fieldset>

      <p role="status" className="visually-hidden">
        {loaded ?? ''}
      </p>
      <div className="actions">
        <button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Creating the deal…' : 'Create the deal'}
        </button>
      </div>
    </form>
  );
}
