import { PERMISSIONS } from '@/lib/portal';
import type { ApiKeyDef } from '@/server/sandbox/keys';

/**
 * A sandbox key with a token nothing else uses, so finding the token in a log line, an error or a reply
 * is unmistakably a leak. It may do everything a full demo key may (lead submission is for source keys).
 */
export const sentinelKey = (token: string, label: string): ApiKeyDef => ({
  id: 'key_sentinel',
  token,
  kind: 'portal',
  environment: 'test',
  permissions: PERMISSIONS.filter((p) => p !== 'leads:submit'),
  channel_slugs: [],
  label,
});
