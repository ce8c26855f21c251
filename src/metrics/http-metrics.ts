import type { NextFunction, Request, Response } from 'express';
import type { Metrics } from './metrics.service.js';

/**
 * Times every request and counts it by route template (`req.route.path` as declared, e.g.
 * /API/users/v1/users/:user_id — never the path the client sent), method and status. A request no route
 * matched is `unmatched`, so unknown paths cannot grow the label set.
 */
export function httpMetrics(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = performance.now();
    res.once('finish', () => {
      const route = (req.route as { path?: unknown } | undefined)?.path;
      const template = typeof route === 'string' ? `${req.baseUrl}${route}` : 'unmatched';
      const method = KNOWN_METHODS.has(req.method) ? req.method : 'OTHER';
      metrics.request(template, method, res.statusCode, (performance.now() - start) / 1000);
    });
    next();
  };
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
