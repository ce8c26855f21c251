import type { ConfigOf } from '../../base/config/namespace.js';
import { METRICS_CONFIG } from './metrics-config.js';
import { Controller, Header, Inject, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { bearerMatches } from './metrics-access.js';
import { MetricsErrors } from './metrics.errors.js';
import { Metrics } from '../../base/common/metrics/metrics.service.js';
import { Route } from '../../base/common/http/route.js';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * `GET /metrics` on the API's port, only with METRICS_TOKEN set and presented as a bearer token (404
 * otherwise: nothing about the service's inside is public). METRICS_PORT serves the same on a listener of
 * its own (metrics-server.ts).
 */
@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(METRICS_CONFIG.token) private readonly metricsConfig: ConfigOf<typeof METRICS_CONFIG>,
  ) {}

  @Route.get({
    summary: 'Prometheus metrics (text format); only with METRICS_TOKEN, as a bearer token',
    public: 'anonymous',
    ok: { content: { 'text/plain': { schema: { type: 'string' } } }, description: 'The metrics' },
    errors: [{ 401: 'No or a wrong bearer token', 404: 'METRICS_TOKEN is not set: not served on this port' }],
  })
  @Header('Cache-Control', 'no-store')
  async getMetrics(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<string> {
    const token = this.metricsConfig.token;
    if (!token) throw MetricsErrors.NOT_SERVED();
    if (!bearerMatches(req.headers.authorization, token)) throw MetricsErrors.UNAUTHORIZED();
    res.setHeader('Content-Type', METRICS_CONTENT_TYPE);
    return this.metrics.render();
  }
}
