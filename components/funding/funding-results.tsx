'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { apiUrl } from '@/lib/api/client';
import { projectMatchesCsvApi } from '@/lib/api/endpoints';
import type { MatchView, ProjectView } from '@/lib/bff/projects';
import { FITS, PRODUCT_KINDS, type Fit, type ProductKind } from '@/lib/portal/funding-values';
import { matchesQuery, type MatchFilters } from '@/lib/queries/projects';
import { useCreateDeal } from '@/lib/queries/mutations/use-create-deal';
import { useDecideMatch } from '@/lib/queries/mutations/use-decide-match';
import { useStartMatchRun } from '@/lib/queries/mutations/use-start-match-run';
import { dealHref } from '@/components/deals/deal-labels';
import { LoadState } from '../ui/load-state';
import { Notice, type NoticeState } from '../ui/notice';
import { SelectField, labelledOptions } from '../ui/select-field';
import { FIT_LABEL, PRODUCT_KIND_LABEL } from './funding-labels';
import { MatchCard } from './match-card';
import { MatchCompare } from './match-compare';

export const MAX_COMPARED = 3;

/**
 * The ranked funders of the latest completed run: filters by fit and product kind, shortlist and dismiss,
 * compare up to three side by side, a deal from a shortlisted match; "criteria changed — recalculate"
 * when the criteria were saved after the run.
 */
export function FundingResults({ project }: { project: ProjectView }) {
  const router = useRouter();
  const [filters, setFilters] = useState<MatchFilters>({ fit: null, product_kind: null });
  const matches = useInfiniteQuery(matchesQuery(project.id, filters));
  const decide = useDecideMatch(project.id);
  const recalc = useStartMatchRun(project.id);
  const createDeal = useCreateDeal();
  const [compared, setCompared] = useState<string[]>([]);
  const [notice, setNotice] = useState<NoticeState>(null);
  const fitId = useId();
  const kindId = useId();
  const items = matches.data?.pages.flatMap((p) => p.items) ?? [];
  const stale = items.some((m) => m.stale);
  const filtered = filters.fit !== null || filters.product_kind !== null;

  function onDecide(before: MatchView, verb: 'shortlist' | 'dismiss') {
    const who = before.recipient.name;
    decide.mutate(
      { before, verb },
      {
        onSuccess: (o) =>
          setNotice(
            o.kind === 'decided'
              ? { kind: 'done', text: `${who} ${verb === 'shortlist' ? 'shortlisted' : 'dismissed'}.` }
              : { kind: 'problem', text: `${who} was changed by someone else meanwhile; it is shown as it is now.` },
          ),
        onError: (e) => setNotice({ kind: 'problem', text: `${who} was not ${verb === 'shortlist' ? 'shortlisted' : 'dismissed'}. ${e.message}` }),
      },
    );
  }

  function onCreateDeal(m: MatchView) {
    createDeal.mutate(
      {
        name: `${project.name} – ${m.recipient.name}`,
        business_id: project.business.id,
        recipient_id: m.recipient.id,
        project_id: project.id,
        match_id: m.id,
      },
      {
        onSuccess: (deal) => router.push(dealHref(deal.id, project.business.id)),
        onError: (e) => setNotice({ kind: 'problem', text: `The deal was not created. ${e.message}` }),
      },
    );
  }

  function toggleCompare(id: string) {
    setCompared((list) => (list.includes(id) ? list.filter((x) => x !== id) : list.length < MAX_COMPARED ? [...list, id] : list));
  }

  const shownCompared = compared.map((id) => items.find((m) => m.id === id)).filter((m): m is MatchView => m !== undefined);
  return (
    <section aria-labelledby="funding-results-title" className="funding-results stack">
      <h2 id="funding-results-title">Funders</h2>
      <div className="funding-filters" role="group" aria-label="Filter the funders">
        <SelectField
          id={fitId}
          label="Fit"
          value={filters.fit ?? ''}
          onChange={(e) => setFilters((f) => ({ ...f, fit: (e.target.value || null) as Fit | null }))}
          any="Any fit"
          options={labelledOptions(FITS, FIT_LABEL)}
        />
        <SelectField
          id={kindId}
          label="Product kind"
          value={filters.product_kind ?? ''}
          onChange={(e) => setFilters((f) => ({ ...f, product_kind: (e.target.value || null) as ProductKind | null }))}
          any="Any kind"
          options={labelledOptions(PRODUCT_KINDS, PRODUCT_KIND_LABEL)}
        />
      </div>
      <LoadState query={matches} what="the funders" />
      {stale && (
        <div className="notice warning funding-stale" role="alert">
          <p>
            <strong>Criteria changed — recalculate.</strong> These results were calculated before the criteria were last saved, so they may no
            longer be right.
          </p>
          <button type="button" onClick={() => recalc.mutate()} disabled={recalc.isPending}>
            {recalc.isPending ? 'Starting…' : 'Recalculate'}
          </button>
          {recalc.error && <p className="field-error">The run did not start. {recalc.error.message}</p>}
        </div>
      )}
      <Notice notice={notice} />
      {matches.data && items.length === 0 && (
        <p>{filtered ? 'No funder matches these filters.' : 'No results yet: find funders once the criteria are complete.'}</p>
      )}
      {shownCompared.length > 0 && <MatchCompare matches={shownCompared} onRemove={toggleCompare} />}
      {items.length > 0 && (
        <p>
          <a href={apiUrl(projectMatchesCsvApi.GET, { params: { projectId: project.id }, query: filters })}>
            Download {filtered ? 'these funders' : 'every funder'} (CSV)
          </a>
        </p>
      )}
      {items.length > 0 && (
        <ol className="funding-matches" aria-label="Funders, best fit first">
          {items.map((m, i) => (
            <MatchCard
              key={m.id}
              match={m}
              rank={i + 1}
              compared={compared.includes(m.id)}
              canCompare={compared.includes(m.id) || compared.length < MAX_COMPARED}
              busy={decide.isPending || createDeal.isPending}
              onDecide={(verb) => onDecide(m, verb)}
              onCompare={() => toggleCompare(m.id)}
              onCreateDeal={() => onCreateDeal(m)}
              businessId={project.business.id}
            />
          ))}
        </ol>
      )}
      {matches.hasNextPage && (
        <div className="actions">
          <button type="button" className="secondary" onClick={() => void matches.fetchNextPage()} disabled={matches.isFetchingNextPage}>
            {matches.isFetchingNextPage ? 'Loading…' : 'Show more funders'}
          </button>
        </div>
      )}
    </section>
  );
}
