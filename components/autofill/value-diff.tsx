import type { FieldModel } from '@/lib/forms';
import { diffSide, wordDiff } from './word-diff';

interface Props {
  field: FieldModel | undefined;
  current: unknown;
  proposed: unknown;
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

const numberFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 6 });

/** One value as a person reads it: option labels, Yes/No, grouped digits. */
export function formatValue(field: FieldModel | undefined, v: unknown): string {
  if (isEmpty(v)) return '(empty)';
  if (Array.isArray(v)) return v.map((x) => formatValue(field, x)).join(', ');
  const option = field?.options?.find((o) => o.value === String(v));
  if (option) return option.label;
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'number') return numberFormat.format(v);
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

const listOf = (v: unknown): unknown[] => (isEmpty(v) ? [] : Array.isArray(v) ? v : [v]);
const key = (v: unknown) => JSON.stringify(v);

/**
 * The current answer beside the proposed one, with the difference made plain for the kind of value:
 * words struck and inserted for text, old → new for numbers, option labels for choices, items added and
 * removed for lists. Struck and inserted text also says so in words for screen readers.
 */
export function ValueDiff({ field, current, proposed }: Props) {
  const list = Array.isArray(current) || Array.isArray(proposed) || field?.widget === 'checkbox-group' || field?.widget === 'list';
  if (list) return <ListDiff field={field} current={listOf(current)} proposed={listOf(proposed)} />;
  const numeric = (typeof current === 'number' || isEmpty(current)) && typeof proposed === 'number';
  const text = typeof proposed === 'string' && !field?.options && (typeof current === 'string' || isEmpty(current));
  return (
    <dl className="autofill-diff">
      <div>
        <dt>Current answer</dt>
        <dd className={isEmpty(current) ? 'muted' : undefined}>
          {text && !isEmpty(current) ? <TextSide before={current as string} after={proposed as string} side="removed" /> : formatValue(field, current)}
        </dd>
      </div>
      <div>
        <dt>Proposed answer</dt>
        <dd>
          {text && !isEmpty(current) ? (
            <TextSide before={current as string} after={proposed as string} side="added" />
          ) : (
            <strong>{formatValue(field, proposed)}</strong>
          )}
          {numeric && typeof current === 'number' && current !== proposed && (
            <span className="muted">
              {' '}
              ({formatValue(field, current)} → {formatValue(field, proposed)}, {proposed > current ? '+' : '−'}
              {numberFormat.format(Math.abs(proposed - current))})
            </span>
          )}
        </dd>
      </div>
    </dl>
  );
}

function TextSide({ before, after, side }: { before: string; after: string; side: 'removed' | 'added' }) {
  const parts = diffSide(wordDiff(before, after), side);
  return (
    <>
      {parts.map((p, i) =>
        p.kind === 'same' ? (
          <span key={i}>{p.text}</span>
        ) : p.kind === 'removed' ? (
          <del key={i}>
            <span className="visually-hidden">[removed: </span>
            {p.text}
            <span className="visually-hidden">]</span>
          </del>
        ) : (
          <ins key={i}>
            <span className="visually-hidden">[added: </span>
            {p.text}
            <span className="visually-hidden">]</span>
          </ins>
        ),
      )}
    </>
  );
}

function ListDiff({ field, current, proposed }: { field: FieldModel | undefined; current: unknown[]; proposed: unknown[] }) {
  const before = new Set(current.map(key));
  const after = new Set(proposed.map(key));
  const removed = current.filter((v) => !after.has(key(v)));
  const added = proposed.filter((v) => !before.has(key(v)));
  const kept = proposed.filter((v) => before.has(key(v)));
  return (
    <dl className="autofill-diff">
      <div>
        <dt>Current answer</dt>
        <dd className={current.length === 0 ? 'muted' : undefined}>{formatValue(field, current)}</dd>
      </div>
      <div>
        <dt>Proposed answer</dt>
        <dd>
          <strong>{formatValue(field, proposed)}</strong>
          {(added.length > 0 || removed.length > 0) && current.length > 0 && (
            <ul className="autofill-list-diff">
              {added.map((v) => (
                <li key={`a${key(v)}`}>
                  <ins>Added: {formatValue(field, v)}</ins>
                </li>
              ))}
              {removed.map((v) => (
                <li key={`r${key(v)}`}>
                  <del>Removed: {formatValue(field, v)}</del>
                </li>
              ))}
              {kept.map((v) => (
                <li key={`k${key(v)}`} className="muted">
                  Kept: {formatValue(field, v)}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
    </dl>
  );
}
