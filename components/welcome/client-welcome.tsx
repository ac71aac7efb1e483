import { When } from '../ui/when';
import Link from 'next/link';
import type { ClientWelcomeView } from '@/lib/bff/client-welcome';
import './welcome.css';


function whoAsked(v: ClientWelcomeView): string {
  const whom = v.businessName ? ` for ${v.businessName}` : '';
  if (v.invitedBy && v.organisation) return `${v.invitedBy} at ${v.organisation} asked you to complete this application${whom}.`;
  if (v.invitedBy || v.organisation) return `${v.invitedBy ?? v.organisation} asked you to complete this application${whom}.`;
  return `You were invited to complete this application${whom}.`;
}

/** The welcome an invited client sees once: who asked, what is needed, the documents to have ready, progress so far. */
export function ClientWelcome({ view: v }: { view: ClientWelcomeView }) {
  const started = v.progress !== null && v.progress.answered > 0;
  const required = v.documents.filter((d) => d.required && !d.conditional);
  return (
    <article aria-labelledby="welcome-title" className="welcome stack">
      <header>
        <p className="muted">{v.applicationName}</p>
        <h1 id="welcome-title">Welcome{v.clientName ? `, ${v.clientName}` : ''}</h1>
        <p className="welcome-lead">{whoAsked(v)}</p>
      </header>

      <section aria-labelledby="welcome-needed">
        <h2 id="welcome-needed">What is needed</h2>
        {v.description && <p>{v.description}</p>}
        <p>
          The form has {v.sectionCount} {v.sectionCount === 1 ? 'section' : 'sections'}. Your answers save as you type, so you can stop and come
          back with the same link; it opens where you left off.
        </p>
        {v.instructions && <p>{v.instructions}</p>}
      </section>

      <section aria-labelledby="welcome-documents">
        <h2 id="welcome-documents">Documents to have ready</h2>
        {v.documents.length === 0 ? (
          <p>This application asks for no documents.</p>
        ) : (
          <>
            <p>
              {required.length > 0
                ? `${required.length} of these ${required.length === 1 ? 'is' : 'are'} required; the others only if they apply to you.`
                : 'None is required in every case; each is asked for if it applies to you.'}
            </p>
            <ul className="welcome-documents">
              {v.documents.map((d) => (
                <li key={d.key}>
                  <strong>{d.label}</strong>
                  {d.required && !d.conditional ? ' (required)' : d.conditional ? ' (if it applies)' : ' (optional)'}
                  {d.provided && <span className="welcome-provided"> — already uploaded</span>}
                  {d.helpText && <span className="muted welcome-help">{d.helpText}</span>}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      <section aria-labelledby="welcome-progress">
        <h2 id="welcome-progress">Progress so far</h2>
        {v.submittedAt ? (
          <p>The application was submitted on <When iso={v.submittedAt} dateOnly />; you can read it but no longer change it.</p>
        ) : v.progress ? (
          <div className="welcome-progress">
            <span id="welcome-progress-label">
              {v.progress.answered} of {v.progress.total} questions answered ({v.progress.percent}%)
            </span>
            <progress aria-labelledby="welcome-progress-label" max={100} value={v.progress.percent} />
          </div>
        ) : (
          <p>Nothing is answered yet.</p>
        )}
      </section>

      <p>
        <Link href={`/applications/${encodeURIComponent(v.applicationId)}`} className="welcome-start">
          {v.submittedAt ? 'Read the application' : started ? 'Continue the application' : 'Start the application'}
        </Link>
      </p>
    </article>
  );
}
