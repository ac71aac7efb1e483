import Link from 'next/link';
import { ReviewWaitingList } from '@/components/workspace/review-waiting-list';
import { StaffHome } from '@/components/workspace/staff-home';
import { FreshnessNote } from '@/components/workspace/freshness-note';
import { OverdueList } from '@/components/workspace/overdue-list';
import { overdueApplications } from '@/server/reminders/overdue';
import { appDb } from '@/server/db/app-db';
import { currentSession } from '@/server/http/current-session';
import { awaitFirstPass } from '@/server/read-model/scheduler';
import { inPipelineOrder } from '@/server/read-model/stage-order';
import { reviewInbox, staffHome } from '@/server/read-model/workspace-views';
import { ReviewQueues } from '@/components/workspace/review-queues';
import { reviewQueues } from '@/server/review/review-queues';
import '@/components/workspace/workspace.css';

/** Staff: the workspace's home (counts by stage and the lists that need someone). */
async function StaffSection() {
  const db = await appDb();
  await awaitFirstPass(db);
  const home = await staffHome(db);
  const ordered = { ...home, stage_counts: await inPipelineOrder(home.stage_counts) };
  return (
    <>
      <StaffHome home={ordered} now={new Date().toISOString()} />
      <OverdueList items={await overdueApplications(db)} />
    </>
  );
}

/** Reviewers: the inbox of applications whose Autofill suggestions wait, the longest waiting first. */
async function ReviewerSection() {
  const db = await appDb();
  await awaitFirstPass(db);
  const inbox = await reviewInbox(db);
  const now = new Date().toISOString();
  return (
    <section aria-labelledby="ws-inbox">
      <h2 id="ws-inbox">Review inbox</h2>
      <FreshnessNote freshness={inbox.freshness} now={now} canRefresh={false} />
      <ReviewWaitingList items={inbox.items} now={now} empty="Nothing is waiting for review." />
    </section>
  );
}

export default async function HomePage() {
  const session = await currentSession();
  return (
    <section aria-labelledby="home-title" className="ws-page">
      <h1 id="home-title">Client intake</h1>
      {session?.kind === 'user' ? (
        <p>
          Welcome, {session.userName}. You are signed in as {session.role === 'staff' ? 'staff' : 'a reviewer'}.
        </p>
      ) : (
        <p>Bring businesses into the Portal, complete their intake applications and review Autofill suggestions.</p>
      )}
      {session?.role === 'staff' && <StaffSection />}
      {session?.role === 'staff' && <ReviewQueues queues={await reviewQueues(await appDb())} />}
      {session?.role === 'reviewer' && <ReviewerSection />}
      {session?.kind === 'client' && (
        <p>
          <Link href={`/applications/${session.applicationId}`}>Continue your application</Link>
        </p>
      )}
      {!session && <p>Sign in to continue.</p>}
    </section>
  );
}
