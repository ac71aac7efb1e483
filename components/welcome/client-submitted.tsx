import { applicationApi } from '@/lib/api/endpoints';
import { apiUrl } from '@/lib/api/client';
import type { ClientSubmittedView } from '@/lib/bff/client-submitted';
import type { CopyGroup, CopyRow } from '@/lib/forms/answers-copy';
import { FocusedHeading } from '../ui/focus-on-arrival';
import { When } from '../ui/when';
import './welcome.css';

function Rows({ rows }: { rows: readonly CopyRow[] }) {
  if (rows.length === 0) return null;
  return (
    <dl className="submitted-answers">
      {rows.map((r, i) => (
        <div key={i}>
          <dt>{r.label}</dt>
          <dd>{r.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Groups({ groups, level }: { groups: readonly CopyGroup[]; level: 3 | 4 }) {
  const Heading = level === 3 ? 'h3' : 'h4';
  return groups.flatMap((g) =>
    g.items.map((item) => (
      <section key={item.label} className="submitted-item" aria-label={item.label}>
        <Heading>{item.label}</Heading>
        <Rows rows={item.rows} />
        <Groups groups={item.groups} level={4} />
      </section>
    )),
  );
}

/** The invited client's confirmation once they have submitted: what was sent, when, what happens next, who to contact, and a copy of the answers. */
export function ClientSubmitted({ view: v }: { view: ClientSubmittedView }) {
  const who = v.organisation ?? 'The team who invited you';
  return (
    <article aria-labelledby="submitted-title" className="welcome stack">
      <header>
        <p className="muted">{v.applicationName}</p>
        <FocusedHeading id="submitted-title">Application sent</FocusedHeading>
        <p className="welcome-lead">
          Your {v.applicationName}
          {v.businessName ? ` for ${v.businessName}` : ''} was sent on <When iso={v.submittedAt} />.
        </p>
      </header>

      <section aria-labelledby="submitted-next">
        <h2 id="submitted-next">What happens next</h2>
        <p>
          {who} will review your answers and documents, and will contact you if anything more is needed. Your answers can no longer be
          changed here.
        </p>
      </section>

      <section aria-labelledby="submitted-contact">
        <h2 id="submitted-contact">Who to contact</h2>
        {v.contact ? (
          <p>
            {v.contact.name}
            {v.organisation ? ` at ${v.organisation}` : ''}: <a href={`mailto:${v.contact.email}`}>{v.contact.email}</a>
          </p>
        ) : (
          <p>The person who sent you the invitation link.</p>
        )}
      </section>

      <section aria-labelledby="submitted-copy">
        <h2 id="submitted-copy">A copy of your answers</h2>
        <p className="muted">Keep it for your records: download it as a PDF, or print this page.</p>
        <p>
          <a href={apiUrl(applicationApi.pdf.GET, { params: { applicationId: v.applicationId } })}>Download a PDF copy of your application</a>
        </p>
        {v.sections.map((s) => (
          <section key={s.label} className="submitted-section" aria-label={s.label}>
            <h3>{s.label}</h3>
            <Rows rows={s.rows} />
            <Groups groups={s.groups} level={4} />
          </section>
        ))}
      </section>
    </article>
  );
}
