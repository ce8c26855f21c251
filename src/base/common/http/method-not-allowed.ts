import type { Request } from 'express';
import { routeLayersFor } from './route-index.js';

/** Methods some route answers on this path: a non-empty result turns a 404 into a 405 with `Allow`. */
export function allowedMethods(req: Request): string[] {
  const methods = new Set<string>();
  for (const layer of routeLayersFor(req.app, req.path)) {
    try {
      if (!layer.match(req.path)) continue;
    } catch {
      continue;
    }
    for (const [m, on] of Object.entries(layer.route!.methods)) {
      if (on && m !== '_all') methods.add(m.toUpperCase());
    }
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
