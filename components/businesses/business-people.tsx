'use client';

import { useQuery } from '@tanstack/react-query';
import { businessPeopleQuery } from '@/lib/queries/business';

/** The business's people (its contacts) with their tags. */
export function BusinessPeople({ businessId }: { businessId: string }) {
  const { data, error, isPending, refetch } = useQuery(businessPeopleQuery(businessId));
  return (
    <section aria-labelledby="biz-people-title" className="stack">
      <h2 id="biz-people-title">People</h2>
      {isPending && (
        <p role="status" className="loading">
          Loading the people…
        </p>
      )}
      {error && (
        <div className="notice warning" role="alert">
          <p>The people could not be loaded: {error.message}</p>
          <button type="button" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      )}
      {data && data.items.length === 0 && <p>No people yet.</p>}
      {data && data.items.length > 0 && (
        <ul className="biz-people">
          {data.items.map((p) => (
            <li key={p.id} className="biz-person">
              <p className="biz-person-name">
                <strong>{p.full_name}</strong>
                {p.is_primary && <span className="biz-badge">Primary contact</span>}
                {p.is_do_not_contact && <span className="biz-badge biz-badge-warn">Do not contact</span>}
              </p>
              {(p.job_title || p.company_name) && <p>{[p.job_title, p.company_name].filter(Boolean).join(', ')}</p>}
              <p>
                {p.email && <a href={`mailto:${p.email}`}>{p.email}</a>}
                {p.email && p.phone_number && ' · '}
                {p.phone_number}
              </p>
              {p.tags.length > 0 && (
                <ul className="biz-tags" aria-label={`Tags of ${p.full_name}`}>
                  {p.tags.map((t) => (
                    <li key={t.id} className="biz-tag">
                      {t.color && <span className="biz-tag-swatch" style={{ background: t.color }} aria-hidden="true" />}
                      {t.name}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
