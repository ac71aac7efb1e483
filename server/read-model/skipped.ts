import 'server-only';
import { z } from 'zod';
import { SkippedStep } from '@/lib/bff/workspace';

/** The skipped steps of a reconcile pass as stored (JSON); anything unreadable counts as none. */
export function parseSkipped(text: string | null): SkippedStep[] {
  if (!text) return [];
  try {
    const parsed = z.array(SkippedStep).safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}
