import type { Router } from 'express';

/** What this file reads of express 5's router (the `router` package): its layers, their routes and matchers. */
interface RouterLayer {
  match(path: string): { path: string } | false;
  route?: { methods: Record<string, boolean> };
  handle: { stack?: RouterLayer[] };
}

/**
 * The HTTP methods some route of `router` answers at `path` (upper case, HEAD with GET), found by
 * walking its layers the way it dispatches: a route whose path matches, or a router mounted on a
 * matching prefix, searched with the rest of the path. Empty when no route has this path at all.
 */
export function allowedMethods(router: Router, path: string): string[] {
  const found = new Set<string>();
  collect((router as unknown as { stack: RouterLayer[] }).stack, path, found);
  if (found.has('GET')) found.add('HEAD');
  return [...found].sort();
}

function collect(stack: RouterLayer[], path: string, found: Set<string>): void {
  for (const layer of stack) {
    const match = layer.match(path);
    if (!match) continue;
    if (layer.route) {
      for (const [method, handled] of Object.entries(layer.route.methods)) if (handled && method !== '_all') found.add(method.toUpperCase());
    } else if (layer.handle.stack) {
      collect(layer.handle.stack, path.slice(match.path.length) || '/', found);
    }
  }
}
