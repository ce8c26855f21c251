import type { Request, Response } from 'express';
import type { Metrics } from '../../base/common/metrics/metrics.service.js';

/**
 * Records a finished request by route template (`req.route.path` as declared, e.g.
 * /API/users/v1/users/:user_id — never the path the client sent), method, status and duration. A request no
 * route matched is `unmatched`, so unknown paths cannot grow the label set. Called by the access log's end
 * of request (requestLogger's `onFinished`): one listener and one middleware per request serve both.
 */
export function httpMetrics(metrics: Metrics) {
  return (req: Request, res: Response, seconds: number): void => {
    const route = (req.route as { path?: unknown } | undefined)?.path;
    const template = typeof route === 'string' ? `${req.baseUrl}${route}` : 'unmatched';
    const method = KNOWN_METHODS.has(req.method) ? req.method : 'OTHER';
    metrics.request(template, method, res.statusCode, seconds);
  };
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
