'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { BusinessView } from '@/lib/bff/businesses';
import type { PortalFeaturesView } from '@/lib/bff/portal-features';
import { businessQuery } from '@/lib/queries/business';
import { BusinessFunding } from '@/components/funding/business-funding';
import { BusinessApplication } from './business-application';
import { BusinessDeals } from './business-deals';
import { BusinessDocuments } from './business-documents';
import { BusinessInvitations } from './business-invitations';
import { BusinessPeople } from './business-people';
import { When } from '../ui/when';
import { InvitationState } from './invitation-state';
import { WorkflowStepper } from './workflow-stepper';
import './businesses.css';

/** One business: its status and workflow, its people, its intake application, documents and the client's invitations, its deals. */
export function BusinessDetail({ initial, features }: { initial: BusinessView; features: PortalFeaturesView }) {
  const queryClient = useQueryClient();
  // The server's read seeds the cache once, so a later visit in this tab starts from it too.
  useState(() => queryClient.setQueryData(businessQuery(initial.id).queryKey, initial));
  const { data: business } = useQuery({ ...businessQuery(initial.id), initialData: initial });
  const name = business.name ?? 'Unnamed business';

  return (
    <article aria-labelledby="biz-title" className="stack">
      <header className="biz-head">
        <h1 id="biz-title">{name}</h1>
        {business.is_sample && <p className="notice info">A fictional example business from the Portal’s onboarding.</p>}
        <dl className="facts biz-status">
          <div>
            <dt>Pipeline</dt>
            <dd>{business.workflow.pipeline.name}</dd>
          </div>
          <div>
            <dt>Stage</dt>
            <dd>{business.workflow.stage.name}</dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd><When iso={business.status.updated_at} /></dd>
          </div>
          {business.application && (
            <div>
              <dt>Client</dt>
              <dd>
                <InvitationState applicationId={business.application.id} />
              </dd>
            </div>
          )}
        </dl>
      </header>
      <WorkflowStepper business={business} />
      <BusinessPeople businessId={business.id} />
      <BusinessFunding businessId={business.id} businessName={name} features={features} />
      {business.application ? (
        <>
          <BusinessApplication applicationId={business.application.id} />
          <BusinessDocuments applicationId={business.application.id} />
          <BusinessInvitations applicationId={business.application.id} businessName={name} />
        </>
      ) : (
        <section aria-labelledby="biz-app-title">
          <h2 id="biz-app-title">Intake application</h2>
          <p>This business has no intake application, so there is nothing to invite its client to.</p>
        </section>
      )}
      <BusinessDeals businessId={business.id} businessName={name} />
    </article>
  );
}
