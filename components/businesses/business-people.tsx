'use client';

import { BreakableEmail } from '../ui/breakable-email';
import { useQuery } from '@tanstack/react-query';
import { businessPeopleQuery } from '@/lib/queries/business';
import { LoadState } from '../ui/load-state';

/** The business's people (its contacts) with their tags. */
export function BusinessPeople({ businessId }: { businessId: string }) {
  const people = useQuery(businessPeopleQuery(businessId));
  const { data } = people;
  return (
    <section aria-labelledby="biz-people-title" className="stack">
      <h2 id="biz-people-title">People</h2>
      <LoadState query={people} what="the people" />
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
                {p.email && (
                  <a href={`mailto:${p.email}`}>
                    <BreakableEmail email={p.email} />
                  </a>
                )}
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
