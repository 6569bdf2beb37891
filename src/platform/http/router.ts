import type { Method, Route } from './types.js';

type Compiled = { route: Route; regex: RegExp; names: string[]; staticSegments: number };

/**
 * Matches paths against the route table in JavaScript. uWS does the routing of real requests; this
 * table answers what uWS cannot: which methods a path allows (405 with `Allow`) and which parameters a
 * request carries when the handler was reached through a fallback.
 */
export class RouteTable {
  private readonly compiled: Compiled[] = [];

  add(route: Route) {
    const names: string[] = [];
    const segments = route.path.split('/');
    const source = segments
      .map((segment) => {
        if (segment.startsWith(':')) {
          names.push(segment.slice(1));
          return '([^/]+)';
        }
        return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    const staticSegments = segments.filter((s) => !s.startsWith(':')).length;
    this.compiled.push({ route, regex: new RegExp(`^${source}$`), names, staticSegments });
  }

  /** The methods of the most specific patterns that match `path` (empty when none does). */
  allowedMethods(path: string): Method[] {
    let best = -1;
    let methods: Method[] = [];
    for (const c of this.compiled) {
      if (!c.regex.test(path)) continue;
      if (c.staticSegments > best) {
        best = c.staticSegments;
        methods = [c.route.method];
      } else if (c.staticSegments === best && !methods.includes(c.route.method)) {
        methods.push(c.route.method);
      }
    }
    return methods;
  }

  get routes(): Route[] {
    return this.compiled.map((c) => c.route);
  }

  /** Distinct patterns, for registering the per-pattern 405 fallbacks with uWS. */
  get patterns(): string[] {
    return [...new Set(this.compiled.map((c) => c.route.path))];
  }
}

/** Names of a pattern's parameters, in order (`/a/:id/b/:x` → ["id", "x"]). */
export function parameterNames(pattern: string): string[] {
  return pattern
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
}
