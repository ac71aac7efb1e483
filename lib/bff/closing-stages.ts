/**
 * Which stages of a pipeline close a business or a deal. The Portal's stage objects carry no such flag
 * (spec 2.5 / 2.14: id, name, order), so it is read from the pipeline itself: the last stage closes it,
 * and so does any stage named as an outcome (the seed's Approved / Declined, Won / Lost, Renewed). A move
 * there ends the work on it, so the page asks first.
 */

const OUTCOME =
  /\b(?:approved|declined|rejected|won|lost|withdrawn|cancell?ed|closed|completed|funded|renewed|archived|abandoned)\b/i;

interface StageLike {
  readonly id: string;
  readonly name: string;
  readonly order: number;
}

/** The ids of the closing stages among `stages` (one pipeline's, in any order). */
export function closingStageIds(stages: readonly StageLike[]): ReadonlySet<string> {
  const closing = new Set<string>();
  let last: StageLike | undefined;
  for (const stage of stages) {
    if (OUTCOME.test(stage.name)) closing.add(stage.id);
    if (last === undefined || stage.order > last.order) last = stage;
  }
  if (last !== undefined) closing.add(last.id);
  return closing;
}
