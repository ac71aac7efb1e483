import 'server-only';
import type { ReviewInboxView, StaffHomeView } from '@/lib/bff/workspace';
import type { Db } from '@/server/db/types';
import { getEnv } from '@/server/env';
import { readFreshness, recentlySubmitted, reviewWaiting, stageCounts, waitingOnClient } from './queries';

// Home lists are short: each links to the work, the businesses table holds the rest.
const HOME_LIST_LIMIT = 10;
const INBOX_LIMIT = 200;

/** Staff home, from the read model only (no upstream call). */
export async function staffHome(db: Db, now: Date = new Date()): Promise<StaffHomeView> {
  const days = getEnv().waitingDays;
  const [counts, waiting, submitted, review, freshness] = await Promise.all([
    stageCounts(db),
    waitingOnClient(db, days, HOME_LIST_LIMIT, now),
    recentlySubmitted(db, HOME_LIST_LIMIT, now),
    reviewWaiting(db, HOME_LIST_LIMIT),
    readFreshness(db, now),
  ]);
  return {
    stage_counts: counts,
    total_businesses: counts.reduce((n, c) => n + c.count, 0),
    waiting_on_client: waiting,
    waiting_days: days,
    recently_submitted: submitted,
    review_waiting: review,
    freshness,
  };
}

/** The reviewer's inbox: applications with pending suggestions, the longest waiting first. */
export async function reviewInbox(db: Db, now: Date = new Date()): Promise<ReviewInboxView> {
  const [items, freshness] = await Promise.all([reviewWaiting(db, INBOX_LIMIT), readFreshness(db, now)]);
  return { items, freshness };
}
