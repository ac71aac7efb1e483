'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { FUNDING_UNAVAILABLE, type PortalFeaturesView } from '@/lib/bff/portal-features';
import { ProjectCreateForm } from '@/lib/bff/projects';
import { projectsKey, projectsQuery } from '@/lib/queries/projects';
import { useCreateProject } from '@/lib/queries/mutations/use-create-project';
import { useLiveEvents } from '@/components/live/use-live-events';
import { LoadState } from '../ui/load-state';
import { SubmitButton } from '../ui/submit-button';
import { TextField } from '../ui/text-field';
import { useZodForm } from '../ui/use-zod-form';
import { FIT_LABEL, PROJECT_STATUS_LABEL, projectHref } from './funding-labels';
import './funding.css';

interface Props {
  businessId: string;
  businessName: string;
  features: PortalFeaturesView;
}

/**
 * The business page's "Funding" section: its funding projects with their status and best fit, and a new one; on a
 * Portal without funding operations, a sentence saying so (and no button that would fail).
 */
export function BusinessFunding({ businessId, businessName, features }: Props) {
  if (!features.funding) {
    return (
      <section aria-labelledby="biz-funding-title" className="stack">
        <h2 id="biz-funding-title">Funding</h2>
        <p>{FUNDING_UNAVAILABLE}</p>
      </section>
    );
  }
  return <FundingProjects businessId={businessId} businessName={businessName} canCreate={features.fundingCreate} />;
}

function FundingProjects({ businessId, businessName, canCreate }: { businessId: string; businessName: string; canCreate: boolean }) {
  const queryClient = useQueryClient();
  const projects = useQuery(projectsQuery(businessId));
  // A run finishing or criteria changing elsewhere moves a project's status and best fit. A run's progress
  // (once a second) shows nothing here, unless the project is not yet shown as matching.
  useLiveEvents({ business_id: businessId }, (m) => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: projectsKey(businessId) });
    if (m.type === 'match_run.progress') {
      const shown = 'project_id' in m ? projects.data?.find((p) => p.id === m.project_id) : undefined;
      if (shown && shown.status !== 'matching') refresh();
    } else if (m.type.startsWith('project.') || m.type.startsWith('match_run.') || m.type === 'live.resync') refresh();
  });
  const { data } = projects;
  return (
    <section aria-labelledby="biz-funding-title" className="stack">
      <h2 id="biz-funding-title">Funding</h2>
      <LoadState query={projects} what="the funding projects" />
      {data && data.length === 0 && (
        <p>{canCreate ? `No funding projects yet. Start one to find the funders that fit ${businessName}.` : 'No funding projects yet.'}</p>
      )}
      {data && data.length > 0 && (
        <ul className="funding-projects">
          {data.map((p) => (
            <li key={p.id} className="funding-project">
              <p className="funding-project-name">
                <Link href={projectHref(p.id)}>{p.name}</Link>
              </p>
              <p>
                Status: <strong>{PROJECT_STATUS_LABEL[p.status]}</strong>
              </p>
              <p>
                Best fit:{' '}
                {p.best_match ? (
                  <>
                    {p.best_match.recipient} ({p.best_match.product}) — {FIT_LABEL[p.best_match.fit]}, score {p.best_match.score}
                    {p.best_match.stale && ' (criteria changed since)'}
                  </>
                ) : (
                  'not calculated yet'
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
      {canCreate && <NewProject businessId={businessId} />}
    </section>
  );
}

function NewProject({ businessId }: { businessId: string }) {
  const router = useRouter();
  const create = useCreateProject();
  const form = useZodForm(ProjectCreateForm, { name: '' });
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) => {
    create.mutate({ business_id: businessId, name: values.name }, { onSuccess: (project) => router.push(projectHref(project.id)) });
  });
  return (
    <form onSubmit={submit} noValidate className="funding-new" aria-labelledby="funding-new-title">
      <h3 id="funding-new-title">New funding project</h3>
      <p className="muted">Its criteria start from what the intake application already says.</p>
      <TextField id="funding-new-name" label="Project name" registration={form.register('name')} error={errors.name?.message} required />
      {create.error && (
        <p className="field-error" role="alert">
          The project was not created. {create.error.message}
        </p>
      )}
      <SubmitButton busy={create.isPending} busyLabel="Creating…" label="New funding project" />
    </form>
  );
}
