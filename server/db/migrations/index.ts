import 'server-only';
import { initial } from './001-initial';
import { webhookEvents } from './002-webhook-events';
import { uploadSlots } from './003-upload-slots';
import { readModel } from './004-read-model';
import { clientWelcome } from './005-client-welcome';
import { sessionCache } from './006-session-cache';
import { reconcilePhases } from './007-reconcile-phases';
import { outbox } from './008-outbox';
import { reminders } from './009-reminders';
import { answerHistory } from './030-answer-history';
import { review } from './031-review';
import { reviewMarks } from './032-review-marks';
import { applicationLeft } from './033-application-left';
import { outboxDeferredMail } from './034-outbox-deferred-mail';
import { outboxIndexes } from './035-outbox-indexes';
import type { Migration } from './types';

// TypeScript modules rather than .sql files: they travel inside Next's server bundle and run under
// tsx and Vitest alike, with no file-system lookup that bundling could break.
export const MIGRATIONS: readonly Migration[] = [initial, webhookEvents, uploadSlots, readModel, clientWelcome, sessionCache, reconcilePhases, outbox, reminders, answerHistory, review, reviewMarks, applicationLeft, outboxDeferredMail, outboxIndexes];
