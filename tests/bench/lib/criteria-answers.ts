import { PRODUCT_KINDS } from '@/lib/portal';
import { COMPLETE_CRITERIA, cw } from '../../integration/support/projects';

/**
 * Criteria answers that every seeded product kind can screen: the match-run benchmarks' project (the tests'
 * complete criteria, asking for every product kind, with a whole-pound profit).
 */
export const BENCH_CRITERIA_ANSWERS = COMPLETE_CRITERIA.map((a) =>
  a.schema_key === 'product_kinds' ? cw('product_kinds', [...PRODUCT_KINDS]) : a.schema_key === 'net_profit' ? cw('net_profit', 142_500) : a,
);
