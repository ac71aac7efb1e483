import { ApiRoot } from '@/lib/portal';
import type { RouteDef } from '../http/context';

// GET / – the owning Portal, the key's access targets and permissions
export const rootRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '',
    access: 'any',
    summary: 'API root',
    tag: 'root',
    response: ApiRoot,
    handle: ({ sb, key }) => ({
      status: 200,
      body: {
        object: 'api_root',
        portal: sb.state.portal,
        environment: sb.options.environment,
        key: { id: key.id, kind: key.kind, permissions: key.permissions, channel_slugs: key.channel_slugs },
      },
    }),
  },
];
