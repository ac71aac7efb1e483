import 'server-only';
import { appDb } from '@/server/db/app-db';
import { log } from '@/server/log';
import { oncePerRevision } from '@/server/once-per-revision';

/** What an invited client still has to do, by label: sections not complete, documents (file questions) not given. */
export interface WhatIsLeft {
  sections: string[];
  documents: string[];
}

/** Once per answers revision of an application, in this process. */
const firstAtRevision = oncePerRevision();

/**
 * Keeps what is left of an application as a form read found it at `revision`, for its reminders. Once per
 * revision per process, and after the reply that read it (`compute` walks the whole form); a newer revision
 * already kept is never overwritten by an older one.
 */
export function noteWhatIsLeft(applicationId: string, revision: number, compute: () => WhatIsLeft): void {
  if (!firstAtRevision(applicationId, revision)) return;
  setImmediate(() => {
    void (async () => {
      const left = compute();
      const db = await appDb();
      await db.query(
        `INSERT INTO application_left (application_id, answers_revision, sections, documents, updated_at)
         VALUES ($1, $2, $3::jsonb, $4::jsonb, now())
         ON CONFLICT (application_id) DO UPDATE
           SET answers_revision = EXCLUDED.answers_revision, sections = EXCLUDED.sections, documents = EXCLUDED.documents, updated_at = now()
         WHERE application_left.answers_revision <= EXCLUDED.answers_revision`,
        [applicationId, revision, JSON.stringify(left.sections), JSON.stringify(left.documents)],
      );
    })().catch((e: unknown) => log.warn('what is left of an application was not kept', { applicationId, error: String(e) }));
  });
}
