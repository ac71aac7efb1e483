import Form from 'next/form';
import Link from 'next/link';
import {
  BUSINESS_SORTS,
  DEFAULT_BUSINESS_SORT,
  PROGRESS_FILTERS,
  type ProgressFilter,
  type WorkspaceBusinessPage,
  type WorkspaceBusinessesQuery,
} from '@/lib/bff/workspace';
import { SelectField, labelledOptions } from '../ui/select-field';
import { SORT_LABEL } from './sort-labels';

const PROGRESS_LABEL: Record<ProgressFilter, string> = {
  not_started: 'Not started',
  in_progress: 'In progress',
  complete: 'All answered',
};

const DIRECTIONS = [
  { value: 'asc', label: 'Ascending (A–Z, oldest, lowest)' },
  { value: 'desc', label: 'Descending (Z–A, newest, highest)' },
];

interface Props {
  query: WorkspaceBusinessesQuery;
  stages: WorkspaceBusinessPage['stages'];
  statuses: WorkspaceBusinessPage['statuses'];
}

/**
 * Search and filters as a GET form: the query is the page's URL, so a search can be bookmarked, shared and
 * walked back with the browser's Back button. The page starts again at 1.
 */
export function BusinessesFilters({ query, stages, statuses }: Props) {
  return (
    <Form action="/businesses" className="ws-filters" role="search" aria-label="Find businesses">
      <div className="field">
        <label htmlFor="ws-q">Name or contact</label>
        <input id="ws-q" name="q" type="search" defaultValue={query.q ?? ''} autoComplete="off" />
      </div>
      <SelectField id="ws-stage" label="Stage" name="stage" defaultValue={query.stage ?? ''} any="Any stage" options={stages.map((s) => ({ value: s.id, label: s.name }))} />
      <SelectField
        id="ws-status"
        label="Application status"
        name="status"
        defaultValue={query.status ?? ''}
        any="Any status"
        options={[...statuses.map((s) => ({ value: s.key, label: s.label })), { value: 'none', label: 'No status yet' }]}
      />
      <SelectField id="ws-progress" label="Progress" name="progress" defaultValue={query.progress ?? ''} any="Any progress" options={labelledOptions(PROGRESS_FILTERS, PROGRESS_LABEL)} />
      {/* The column headers sort too; these work where the table is shown as cards (phones) and without a pointer. */}
      <SelectField id="ws-sort" label="Sort by" name="sort" defaultValue={query.sort ?? DEFAULT_BUSINESS_SORT.sort} options={labelledOptions(BUSINESS_SORTS, SORT_LABEL)} />
      <SelectField id="ws-dir" label="Order" name="dir" defaultValue={query.dir ?? (query.sort ? 'asc' : DEFAULT_BUSINESS_SORT.dir)} options={DIRECTIONS} />
      <div className="actions ws-filter-actions">
        <button type="submit">Search</button>
        <Link href="/businesses">Clear</Link>
      </div>
    </Form>
  );
}
