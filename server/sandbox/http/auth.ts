import type { ApiKeyDef } from '../keys';
import type { SandboxOptions } from '../options';
import { SandboxError } from './errors';
import { sameSecret } from './upload-body';

const unauthenticated = (message: string) =>
  new SandboxError('unauthenticated', message, [{ code: 'invalid_api_key', message, parameter: 'Authorization' }], {
    'WWW-Authenticate': 'Bearer realm="portal"',
  });


/** Bearer authentication (spec §5): the key must exist and belong to this sandbox's environment. */
export function authenticate(header: string | undefined, options: SandboxOptions): ApiKeyDef {
  if (!header) throw unauthenticated('Send Authorization: Bearer <API key>.');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthenticated('The Authorization header must be "Bearer <API key>".');
  const token = m[1]!;
  const key = options.keys.find((k) => sameSecret(k.token, token));
  if (!key) throw unauthenticated('The API key is not valid.');
  if (key.environment !== options.environment) {
    throw unauthenticated(
      `A ${key.environment} key cannot authenticate against the ${options.environment} environment.`,
    );
  }
  return key;
}
