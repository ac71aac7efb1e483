import type { RouteDef } from './context';

interface Compiled {
  route: RouteDef;
  segments: string[];
}

/** Matches `/v1/`-relative paths to routes; a missing trailing slash is accepted. */
export class Router {
  private readonly compiled: Compiled[];
  constructor(readonly routes: RouteDef[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.path.split('/').filter(Boolean) }));
  }

  match(method: string, path: string): { route: RouteDef; params: Record<string, string> } | { pathExists: boolean } {
    const parts = path.split('/').filter(Boolean);
    let pathExists = false;
    for (const c of this.compiled) {
      if (c.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = c.segments[i]!;
        const part = parts[i]!;
        if (seg.startsWith(':')) {
          const value = decodeSegment(part);
          // A malformed percent-encoding names no resource: 404 like any unknown id, not a 500.
          if (value === null) {
            ok = false;
            break;
          }
          params[seg.slice(1)] = value;
        } else if (seg !== part) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      pathExists = true;
      if (c.route.method === method) return { route: c.route, params };
    }
    return { pathExists };
  }
}

function decodeSegment(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}
