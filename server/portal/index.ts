import 'server-only';

export {
  portalRequest,
  portalRevalidate,
  type PortalMethod,
  type PortalNotModified,
  type PortalQuery,
  type PortalRequestOptions,
  type PortalResponse,
  type PortalRevalidateOptions,
} from './client';
export {
  DEFAULT_TRANSFER_TIMEOUT_MS,
  portalDownload,
  portalTransfer,
  safeDownloadHeaders,
  type PortalDownloadOptions,
  type PortalTransferOptions,
  type PortalTransferResult,
  type TransferBody,
} from './transfer';
export { routes, urlBelow, type PortalPath } from './routes';
export { missingConstructedPaths, portalCapabilities, startPortalDiscovery } from './discovery';
export { readFilteredPage } from './filtered-read';
export { portalFeatures } from './features';
export type { PortalCapabilities } from './openapi-index';
export { isTrustedPortalUrl, portalBaseUrl, trustedPortalUrl } from './url-guard';
export { PortalError, isPortalError, type LocalErrorCode, type PortalErrorCodeLike, type PortalErrorInit } from './errors';
export { toBrowserError, type BrowserError, type BrowserErrorBody } from './browser-error';
export { etagOf, ifMatchValue, ifNoneMatchValue, isEtag } from './etag';
export { idempotencyKeyValue, isIdempotencyKey, newIdempotencyKey } from './idempotency';
export { RETRY_POLICY, parseRetryAfter, setRetryTimingForTests, type RetryTiming } from './retry-policy';
export { cleanFilename, contentDisposition } from './content-disposition';
