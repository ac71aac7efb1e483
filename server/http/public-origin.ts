import 'server-only';
import { getEnv } from '@/server/env';
import { listenOrigin } from '@/server/env/listen-origin';

let listening: string | null = null;

/**
 * The app's public origin, for every link it hands out (invitation links) and its cookies' scope: APP_ORIGIN
 * when configured, else the address the app listens on (the demo's `npm start`). Never taken from a request:
 * a Host or X-Forwarded-Proto header of the attacker's choosing once made invitation links point elsewhere.
 */
export function publicOrigin(): string {
  const configured = getEnv().appOrigin;
  if (configured) return configured;
  // Read at the first request, once the server listens (Next sets PORT then).
  listening ??= listenOrigin(process.env);
  return listening;
}
