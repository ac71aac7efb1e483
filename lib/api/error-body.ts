import type { BffErrorBody } from '@/lib/bff/errors';
import type { ErrorCode } from '@/lib/error-codes';
import type { ErrorDetail } from '@/lib/portal';
import { ApiError } from './api-error';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isDetail = (x: unknown): x is ErrorDetail => isObject(x) && typeof x.code === 'string' && typeof x.message === 'string';

/**
 * The BFF's error body (DESIGN.md §3) or null. Checked by hand rather than with the zod schema: this runs in
 * every page's bundle, and what the BFF sends it built itself from parsed values; only the shape matters here.
 */
export function readErrorBody(json: unknown): BffErrorBody['error'] | null {
  const error = isObject(json) ? json.error : null;
  if (!isObject(error) || typeof error.code !== 'string' || typeof error.message !== 'string') return null;
  const details = Array.isArray(error.details) ? error.details.filter(isDetail) : [];
  const requestId = typeof error.request_id === 'string' ? error.request_id : null;
  // The code is one of lib/error-codes: the BFF answers no other (BffErrorBody checks it in the route tests);
  // looking it up here would ship the whole list to every page.
  return { code: error.code as ErrorCode, message: error.message, request_id: requestId, details };
}

/** The ApiError of a refused call: the BFF's code and message when the body is its error shape. */
export function refusal(status: number, json: unknown): ApiError {
  const body = readErrorBody(json);
  if (!body) return new ApiError(status, 'unexpected_reply', `The app answered with HTTP ${status}.`);
  return new ApiError(status, body.code, body.message, body.details, body.request_id, json);
}

/** A reply's text as JSON; null when empty or not JSON (a refusal then reads as unexpected). */
export function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
