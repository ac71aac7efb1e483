import type { FileView } from '@/lib/bff/files';
import { fieldForName, formModel, formStateFrom, type FormItem, type FormModel, type FormProgress, type FormValue } from '@/lib/forms';
import { groupFiles } from '@/lib/forms/file-values';
import type { FormIndex } from '@/lib/forms/opening';
import type { FreshRead } from './merges';

/** The section a page was opened on, and the server's index of the rest (lib/forms/opening). */
export interface SectionOpening {
  index: FormIndex;
  sectionKey: string;
}

/** What the full snapshot brings to a runtime opened on one section (FormRuntime.upgrade). */
export interface UpgradeSnapshot extends FreshRead {
  contract: Parameters<typeof formModel>[0];
}

/**
 * A form opened on one section (the page sent that section and an index of the rest): the index's counts stand
 * for the other sections until the upgrade brings the whole contract and answers. Whoever needs the whole form
 * (submit, a live refresh) waits for it here.
 */
export class Opening {
  private waiters: Array<() => void> = [];

  constructor(private opening: SectionOpening | null) {}

  /** Whether the model is the whole contract's (not only the opening section's). */
  get complete(): boolean {
    return this.opening === null;
  }

  /** Resolves once the runtime has the whole contract (at once when it was opened with it). */
  whenComplete(): Promise<void> {
    if (this.complete) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  completed() {
    this.opening = null;
  }

  /** Tells those waiting for the whole form; after the upgrade has settled in. */
  release() {
    for (const w of this.waiters.splice(0)) w();
  }

  /**
   * Progress while only the opening section is in the model: that section's counts are live, the others'
   * are the server's (nobody can change them before the upgrade but through a live refresh, which upgrades).
   */
  progress(live: FormProgress): FormProgress {
    if (this.opening === null) return live;
    const { index, sectionKey } = this.opening;
    const here = live.sections.find((s) => s.sectionKey === sectionKey);
    const before = index.sections.find((s) => s.sectionKey === sectionKey);
    const sections = index.sections.map((s) => (s.sectionKey === sectionKey && here ? here : s));
    const answered = index.answered - (before?.answered ?? 0) + (here?.answered ?? 0);
    const total = index.total - (before?.total ?? 0) + (here?.total ?? 0);
    const percent = total === 0 ? 100 : Math.floor((answered * 100) / total);
    return { sections, answered, total, percent, missing: live.missing.filter((m) => m.sectionKey === sectionKey) };
  }
}

/** What the whole form adds to a page opened on one section. */
export interface WholeFormAdds {
  /** Answers (as input values) of questions the opening's model did not know. */
  answers: Record<string, FormValue>;
  /** File fields it did not know, with their files' ids. */
  fileValues: Record<string, FormValue>;
  /** Items of groups it did not know. */
  items: readonly FormItem[];
  /** Every file field's files: the opening's as the page holds them, the others' as read. */
  files: Map<string, readonly FileView[]>;
}

/**
 * The answers, items and files the opening did not carry, as the upstream holds them; what the opening carried
 * keeps what the inputs show (merged by the caller when the upstream moved on).
 */
export function wholeFormAdds(opening: FormModel, full: UpgradeSnapshot, model: FormModel, files: ReadonlyMap<string, readonly FileView[]>): WholeFormAdds {
  const state = formStateFrom(model, full.answers.items, full.items);
  const known = (name: string) => fieldForName(opening, name) !== undefined;
  const answers: Record<string, FormValue> = {};
  for (const [name, value] of Object.entries(state.values)) if (!known(name)) answers[name] = value;
  const fileValues: Record<string, FormValue> = {};
  const merged = new Map(files);
  for (const [name, list] of groupFiles(full.files)) {
    if (known(name)) continue;
    fileValues[name] = list.map((f) => f.id);
    merged.set(name, list);
  }
  return { answers, fileValues, items: state.items.filter((i) => !opening.groupByKey.has(i.blockKey)), files: merged };
}
