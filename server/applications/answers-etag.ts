import 'server-only';

/*
 * The spec versions an application's answers by answers_revision (every answer page and write result carries it)
 * and promises ETags only for "resource versions for conditional writes". A Portal whose answer reads carry no
 * ETag still gets conditional writes: the browser is handed an ETag of the BFF's own, made from answers_revision,
 * and a write quoting it goes upstream without If-Match, guarded by the answers_revision in its body.
 */

const PREFIX = '"bff-answers-revision-';

/** The ETag the browser gets for the answer set: the Portal's when it gave one, else one made from answers_revision. */
export const answerSetEtag = (etag: string | null | undefined, answersRevision: number): string => etag || `${PREFIX}${answersRevision}"`;

/** The If-Match to send upstream for the browser's: none for an ETag the BFF made (the body's answers_revision guards the write). */
export const upstreamIfMatch = (ifMatch: string | undefined): string | undefined => (ifMatch?.startsWith(PREFIX) ? undefined : ifMatch);
