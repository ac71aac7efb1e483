import 'server-only';
import { z } from 'zod';
import { BlockKeyParam } from '@/lib/bff/items';
import { ID_PATTERNS } from '@/lib/portal';
import { ApplicationParams } from '@/server/http/params';

/** Path parameters below an application, each checked before it goes into an upstream URL. */
export const ItemGroupParams = ApplicationParams.extend({ blockKey: BlockKeyParam });
export type ItemGroupParams = z.infer<typeof ItemGroupParams>;

export const ItemParams = ItemGroupParams.extend({ itemId: z.string().regex(ID_PATTERNS.repeatableItem, 'not a repeatable item id') });
export type ItemParams = z.infer<typeof ItemParams>;

export const FileParams = ApplicationParams.extend({ fileId: z.string().regex(ID_PATTERNS.answerFile, 'not a file id') });
export type FileParams = z.infer<typeof FileParams>;

/** Clients reach only their invited application: every route below one names it the same way. */
export const byApplication = ({ params }: { params: { applicationId: string } }) => params.applicationId;
