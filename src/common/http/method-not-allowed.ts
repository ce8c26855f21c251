import type { Request } from 'express';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  match(path: string): boolean;
}

/** Methods some route answers on this path: a non-empty result turns a 404 into a 405 with `Allow`. */
export function allowedMethods(req: Request): string[] {
  const router = (req.app as unknown as { router?: { stack: Layer[] } }).router;
  const methods = new Set<string>();
  for (const layer of router?.stack ?? []) {
    if (!layer.route) continue;
    try {
      if (!layer.match(req.path)) continue;
    } catch {
      continue;
    }
    for (const [m, on] of Object.entries(layer.route.methods)) {
      if (on && m !== '_all') methods.add(m.toUpperCase());
    }
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
