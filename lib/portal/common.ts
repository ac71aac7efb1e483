import { z } from 'zod';
import { findUnsafeText } from '../contract/text-hygiene';
import { LIMITS } from './limits';

export const Uri = z.url();
export const DateTime = z.iso.datetime({ offset: true });
export const NonNegativeInt = z.int().min(0);
export const Revision = NonNegativeInt;
/** Preparation revision and attempt_sequence start at 1 (spec §8). */
export const PositiveRevision = z.int().min(1);

/**
 * Free text a person types and the Portal stores (names, contacts, notes): refused with the reason when it
 * holds NUL, a lone surrogate or a bidi control (lib/contract/text-hygiene), never silently cleaned.
 */
export const freeText = (schema: z.ZodString) =>
  schema.superRefine((text, ctx) => {
    const unsafe = findUnsafeText(text);
    if (unsafe !== null) ctx.addIssue({ code: 'custom', message: unsafe.message });
  });

/** A page of a collection (spec 2.1). */
export const page = <T extends z.ZodType>(item: T) =>
  z.strictObject({
    object: z.literal('list'),
    items: z.array(item),
    next_cursor: z.string().nullable(),
    previous_cursor: z.string().nullable(),
  });

/** Forward-only pages (answers, repeatable items, answer files): previous_cursor is always null. */
export const forwardPage = <T extends z.ZodType>(item: T) =>
  z.strictObject({
    object: z.literal('list'),
    items: z.array(item),
    next_cursor: z.string().nullable(),
    previous_cursor: z.null(),
  });

export const PageQuery = z.strictObject({
  page_size: z.coerce.number().int().min(LIMITS.paging.min).max(LIMITS.paging.max).optional(),
  cursor: z.string().min(1).optional(),
});

/** Error codes of DESIGN.md §5 with their HTTP statuses (kept with every other code in lib/error-codes). */
export { PORTAL_ERROR_STATUS as ERROR_STATUS, type PortalErrorCode } from '../error-codes';

/** The spec leaves the error body's fields unshown: the known ones are read, anything else a Portal adds is let be. */
export const ErrorDetail = z.looseObject({
  code: z.string(),
  message: z.string(),
  block_key: z.string().optional(),
  schema_key: z.string().optional(),
  field_key: z.string().optional(),
  item_id: z.string().optional(),
  parameter: z.string().optional(),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/** Error body (DESIGN.md §5). The code is kept a string so an unknown upstream code still parses. */
export const ErrorBody = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    request_id: z.string().optional(),
    details: z.array(ErrorDetail).default([]),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The `{id, object}` reference used inside several resources. */
export const ref = <O extends string>(idSchema: z.ZodString, object: O) =>
  z.strictObject({ id: idSchema, object: z.literal(object) });
