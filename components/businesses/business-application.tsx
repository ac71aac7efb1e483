'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { apiUrl } from '@/lib/api/client';
import { applicationApi } from '@/lib/api/endpoints';
import { intakeFormBase } from '@/lib/api/form-base';
import { applicationQuery } from '@/lib/queries/application';
import { LoadState } from '../ui/load-state';
import { When } from '../ui/when';

/** The business's intake application: its status and how far it is filled in, with a way into the form. */
export function BusinessApplication({ applicationId }: { applicationId: string }) {
  const application = useQuery(applicationQuery(intakeFormBase(applicationId)));
  const { data } = application;
  const progress = data?.progress;
  return (
    <section aria-labelledby="biz-app-title" className="stack">
      <h2 id="biz-app-title">Intake application</h2>
      <LoadState query={application} what="the application" />
      {data && (
        <>
          <dl className="facts">
            <div>
              <dt>Status</dt>
              <dd>{data.status?.label ?? 'Not started'}</dd>
            </div>
            {data.submitted_at && (
              <div>
                <dt>Submitted</dt>
                <dd>
                  <When iso={data.submitted_at} />
                </dd>
              </div>
            )}
          </dl>
          {progress && (
            <div className="biz-progress">
              <span id="biz-app-progress-label">
                {progress.completed_items} of {progress.total_items} answered ({progress.percent}%)
              </span>
              <progress aria-labelledby="biz-app-progress-label" max={100} value={progress.percent} />
            </div>
          )}
          <p>
            <Link href={`/applications/${applicationId}`}>{data.submitted_at ? 'View the application' : 'Open the application form'}</Link>
          </p>
          <p>
            <Link href={`/applications/${applicationId}/timeline`}>Timeline of the application</Link>
          </p>
          <p className="actions">
            <a href={apiUrl(applicationApi.pdf.GET, { params: { applicationId } })}>Download the application (PDF)</a>
            <a href={apiUrl(applicationApi.package.GET, { params: { applicationId } })}>Download the funder package (ZIP: PDF and documents)</a>
          </p>
        </>
      )}
    </section>
  );
}
