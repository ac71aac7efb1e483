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
import { SORT_LABEL } from './sort-labels';

const PROGRESS_LABEL: Record<ProgressFilter, string> = {
  not_started: 'Not started',
  in_progress: 'In progress',
  complete: 'All answered',
};

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
      <div className="field">
        <label htmlFor="ws-stage">Stage</label>
        <select id="ws-stage" name="stage" defaultValue={query.stage ?? ''}>
          <option value="">Any stage</option>
          {stages.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="ws-status">Application status</label>
        <select id="ws-status" name="status" defaultValue={query.status ?? ''}>
          <option value="">Any status</option>
          {statuses.map((s) => (
            <option key={s.key} value={s.key}>
              {s.label}
            </option>
          ))}
          <option value="none">No status yet</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="ws-progress">Progress</label>
        <select id="ws-progress" name="progress" defaultValue={query.progress ?? ''}>
          <option value="">Any progress</option>
          {PROGRESS_FILTERS.map((p) => (
            <option key={p} value={p}>
              {PROGRESS_LABEL[p]}
            </option>
          ))}
        </select>
      </div>
      {/* The column headers sort too; these work where the table is shown as cards (phones) and without a pointer. */}
      <div className="field">
        <label htmlFor="ws-sort">Sort by</label>
        <select id="ws-sort" name="sort" defaultValue={query.sort ?? DEFAULT_BUSINESS_SORT.sort}>
          {BUSINESS_SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_LABEL[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="ws-dir">Order</label>
        <select id="ws-dir" name="dir" defaultValue={query.dir ?? (query.sort ? 'asc' : DEFAULT_BUSINESS_SORT.dir)}>
          <option value="asc">Ascending (A–Z, oldest, lowest)</option>
          <option value="desc">Descending (Z–A, newest, highest)</option>
        </select>
      </div>
      <div className="actions ws-filter-actions">
        <button type="submit">Search</button>
        <Link href="/businesses">Clear</Link>
      </div>
    </Form>
  );
}
