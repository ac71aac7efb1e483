import 'server-only';
import type { z } from 'zod';
import { fileParams, itemGroupParams, itemParams } from '@/server/http/path-params';
import type { AnyApplicationKind } from './kind';

/** The path parameters of a kind's routes: its own id segment, then what is below the application. */
export type KindParams<Id extends string> = { [K in Id]: string };

/** The schemas are built from the kind's own; their types are stated here once, as zod cannot follow a generic key. */
export function kindParams<Id extends string>(kind: AnyApplicationKind<Id>) {
  return {
    application: kind.params as z.ZodType<KindParams<Id>>,
    itemGroup: itemGroupParams(kind.params) as unknown as z.ZodType<KindParams<Id> & { blockKey: string }>,
    item: itemParams(kind.params) as unknown as z.ZodType<KindParams<Id> & { blockKey: string; itemId: string }>,
    file: fileParams(kind.params) as unknown as z.ZodType<KindParams<Id> & { fileId: string }>,
  };
}

/** The audit record of a write on the application itself (its answers, its submit). */
export const applicationAudit = <Id extends string>(kind: AnyApplicationKind<Id>, operation: string) => ({
  operation,
  object: ({ params }: { params: KindParams<Id> }) => ({ type: kind.audit.application.type, id: params[kind.idParam], applicationId: params[kind.idParam] }),
});
