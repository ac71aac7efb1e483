'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import type { ProjectView } from '@/lib/bff/projects';
import { projectCriteriaFormBase } from '@/lib/api/form-base';
import { applicationQuery } from '@/lib/queries/application';
import { latestRunKey, matchesKey, projectKey, projectQuery, putRunProgress, startRunKey } from '@/lib/queries/projects';
import { IntakeFormPage } from '@/components/intake-form/intake-form-page';
import { useLiveEvents } from '@/components/live/use-live-events';
import { FindFunders } from './find-funders';
import { FundingResults } from './funding-results';
import { PROJECT_STATUS_LABEL } from './funding-labels';
import './funding.css';

interface Props {
  initial: ProjectView;
  /** The criteria form's opening as the server read it (JSON). */
  snapshotJson: string;
  deviceKey: string;
}

/**
 * A funding project: its criteria in the intake form's renderer, "Find funders" with the run's live
 * progress, and the ranked results. The project's live events move the progress bar (a run's progress comes
 * whole in its event) and refresh what the others touch (criteria saved, a run finished or failed, a deal made).
 */
export function ProjectPage({ initial, snapshotJson, deviceKey }: Props) {
  const queryClient = useQueryClient();
  useState(() => queryClient.setQueryData(projectKey(initial.id), initial));
  const { data: project } = useQuery({ ...projectQuery(initial.id), initialData: initial });
  const businessName = project.business.name ?? 'the business';
  const criteriaBase = projectCriteriaFormBase(project.id);

  // The form reads the criteria again after its saves: saved criteria make the results stale, so read
  // those again too (the live event says the same; this does not wait for it).
  const { data: criteria } = useQuery({ ...applicationQuery(criteriaBase), enabled: false });
  const answersRevision = criteria?.answers_revision;
  useEffect(() => {
    if (answersRevision !== undefined) void queryClient.invalidateQueries({ queryKey: matchesKey(project.id) });
  }, [answersRevision, queryClient, project.id]);

  const live = useLiveEvents({ project_id: project.id }, (m) => {
    const refresh = (key: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey: key });
    if (m.type === 'match_run.progress' && 'run_progress' in m && m.run_progress) {
      // A run the page does not show yet: read it, unless this page is starting one, whose reply shows it.
      const starting = queryClient.isMutating({ mutationKey: startRunKey(project.id) }) > 0;
      if (!putRunProgress(queryClient, project.id, m.run_progress) && !starting) refresh(latestRunKey(project.id));
      return;
    }
    refresh(projectKey(project.id));
    if (m.type !== 'project.criteria_updated') refresh(latestRunKey(project.id));
    // Saved criteria make the results stale; a finished run brings new ones.
    refresh(matchesKey(project.id));
  });

  return (
    <article aria-labelledby="project-title" className="funding-page stack">
      <p>
        <Link href={`/businesses/${encodeURIComponent(project.business.id)}`}>← {businessName}</Link>
      </p>
      <header className="funding-head">
        <p className="muted">Funding project of {businessName}</p>
        <h1 id="project-title">{project.name}</h1>
        <dl className="facts">
          <div>
            <dt>Status</dt>
            <dd>{PROJECT_STATUS_LABEL[project.status]}</dd>
          </div>
        </dl>
      </header>
      <section aria-label="Criteria" className="funding-criteria">
        <IntakeFormPage
          apiBase={criteriaBase}
          snapshotJson={snapshotJson}
          canWrite
          deviceKey={deviceKey}
          placeOf={null}
          // Finding funders is what takes the criteria: it checks them as a submit does, with links to the fields.
          footer={<FindFunders projectId={project.id} live={live} />}
        />
      </section>
      <FundingResults project={project} />
    </article>
  );
}
