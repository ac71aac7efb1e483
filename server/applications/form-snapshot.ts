import 'server-only';
import type { ApplicationView, CurrentAnswers } from '@/lib/bff/applications';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import type { RepeatableItemView } from '@/lib/bff/items';
import type { ApplicationContract, RepeatableGroup } from '@/lib/portal';
import { readAllAnswers } from './answers';
import { contractCache, readContract, type ContractRead } from './contract-cache';
import { readAllFiles } from './files';
import { readAllItems } from './items';
import { contractView, fileView } from './application-views';
import { withAbortScope } from '@/server/context/request-context';
import type { AnyApplicationKind } from './kind';
import type { ApplicationLinks } from './kind-links';
import { noteAnswerSetRead } from '@/server/history/answer-reads';
import { noteWhatIsLeft } from '@/server/reminders/what-is-left';
import { snapshotLeft } from './snapshot-progress';

/** The URLs a form snapshot reads (every kind has them). */
type FormLinks = Pick<ApplicationLinks, 'contract' | 'answers' | 'repeatableItems' | 'files'>;

export type FormSnapshot = FormSnapshotView;

/** The groups whose items can be listed (item_operations include 'list'); the others contribute nothing. */
const listableGroups = (contract: Pick<ApplicationContract, 'repeatable_groups'>): RepeatableGroup[] =>
  contract.repeatable_groups.filter((g) => g.item_operations.includes('list'));

const sameGroups = (a: RepeatableGroup[], b: RepeatableGroup[]) => a.length === b.length && a.every((g, i) => g.block_key === b[i]!.block_key);

interface GroupsRead {
  items: RepeatableItemView[];
  /** answers_revision of each group's read. */
  revisions: number[];
}

/** Every item of every group, of every parent (nested groups included), in contract order. */
async function readGroups(links: FormLinks, groups: RepeatableGroup[]): Promise<GroupsRead> {
  const reads = await Promise.all(groups.map((g) => readAllItems(links, g.block_key)));
  return { items: reads.flatMap((r) => r.items), revisions: reads.map((r) => r.answers_revision) };
}

/**
 * Items while the contract is still being revalidated: a kept copy's groups are known already, so their
 * reads start at once; they are used when the contract that comes back lists the same groups (it does
 * unless its contract_version changed), and otherwise the right groups are read after it.
 */
async function readItemsAlongside(links: FormLinks, contract: Promise<ContractRead>, kept: ApplicationContract | undefined) {
  const guess = kept ? listableGroups(kept) : null;
  const early = guess ? readGroups(links, guess) : null;
  early?.catch(() => undefined); // unused when the guess was wrong; aborted when the snapshot ends
  const groups = listableGroups((await contract).contract);
  if (early && guess && sameGroups(guess, groups)) return early;
  return readGroups(links, groups);
}

/** Answers, items and files: the three reads of the answer set. */
async function readAnswerSet(links: FormLinks, items: Promise<GroupsRead>) {
  const [answers, groups, files] = await Promise.all([readAllAnswers(links), items, readAllFiles(links)]);
  return { answers, groups, files };
}

/** True when every item read saw the answer set at the answers read's revision. */
const consistent = (set: { answers: CurrentAnswers; groups: GroupsRead }) => set.groups.revisions.every((r) => r === set.answers.answers_revision);

/**
 * Everything a form opens with. Round trips, sequentially:
 *  - links known (any earlier request of this application): ONE round — application, contract (kept copy
 *    within CONTRACT_FRESH_MS: no call; else If-None-Match, usually 304), all answer pages, the items of
 *    every listable group (started from the kept copy's groups), all file pages, all at once;
 *  - links unknown: application, then its contract, then answers ‖ items ‖ files (three rounds: the
 *    answers, items and files URLs are only known from the contract).
 * The reads of the answer set run in parallel, so a write landing between them could show items of
 * another revision than the answers: then answers, items and files are read once more, so that an item
 * edit quoting the answers ETag cannot be based on items older than that ETag.
 */
export async function readFormSnapshot(kind: AnyApplicationKind, id: string): Promise<FormSnapshot> {
  // Every read of this snapshot stops with the request, and also once the snapshot is done (an unused early
  // read of items) or once one read failed (the reply is an error anyway).
  const done = new AbortController();
  const snapshot = await withAbortScope(done.signal, () => readSnapshot(kind, id).finally(() => done.abort()));
  noteAnswerSetRead(id, snapshot);
  // The kind clients are invited to (the one reviewed): its reminders say what is left.
  if (kind.reviewed) noteWhatIsLeft(id, snapshot.answers.answers_revision, () => snapshotLeft(snapshot));
  return snapshot;
}

async function readSnapshot(kind: AnyApplicationKind, id: string): Promise<FormSnapshot> {
  let application: ApplicationView;
  let contract: ContractRead;
  let links: FormLinks;
  let set: Awaited<ReturnType<typeof readAnswerSet>>;
  const known = kind.links.known(id);
  const readApplication = async () => {
    const read = await kind.read(id);
    return { app: read.app, view: kind.view(read.app, read.etag ?? '') };
  };
  if (known) {
    links = known;
    const contractRead = readContract(links.contract);
    const items = readItemsAlongside(links, contractRead, contractCache.peek(links.contract));
    const [app, c, s] = await Promise.all([readApplication(), contractRead, readAnswerSet(links, items)]);
    application = app.view;
    contract = c;
    set = s;
  } else {
    const app = await readApplication();
    contract = await readContract(kind.contractUrl(app.app));
    links = kind.links.remember(id, app.app, contract.contract);
    application = app.view;
    set = await readAnswerSet(links, readGroups(links, listableGroups(contract.contract)));
  }
  if (!consistent(set)) set = await readAnswerSet(links, readGroups(links, listableGroups(contract.contract)));

  const { answers, groups, files } = set;
  return {
    application,
    // The contract's answers_revision is the answers read's: a reused copy's would be stale, and a fresh
    // one was read at another moment than the answers the browser gets with it.
    contract: { ...contractView(contract.contract), answers_revision: answers.answers_revision },
    answers: { items: answers.items, answers_revision: answers.answers_revision, etag: answers.etag },
    items: groups.items,
    files: files.map(fileView),
  };
}
