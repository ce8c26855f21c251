import type { ConfigOf } from '../../base/config/namespace.js';
import { METRICS_CONFIG } from './metrics-config.js';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { bearerMatches } from './metrics-access.js';
import { METRICS_CONTENT_TYPE } from './metrics.controller.js';
import { Metrics } from '../../base/common/metrics/metrics.service.js';

/**
 * METRICS_PORT: a listener of its own (same host as the API) that answers `GET /metrics` and nothing else,
 * for a scraper on a network the API's clients do not reach. With METRICS_TOKEN also set, it asks for the
 * token too.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | null = null;

  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    @Inject(METRICS_CONFIG.token) private readonly metricsConfig: ConfigOf<typeof METRICS_CONFIG>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.metricsConfig.port;
    if (port === null) return;
    const token = this.metricsConfig.token;
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'GET' || (path !== '/metrics' && path !== '/metrics/')) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
        return;
      }
      if (token && !bearerMatches(req.headers.authorization, token)) {
        res.writeHead(401, { 'Content-Type': 'text/plain' }).end('unauthorized\n');
        return;
      }
      this.metrics.render().then(
        (body) => res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE }).end(body),
        (err: Error) => {
          this.logger.error(`metrics scrape failed: ${err.message}`);
          res.writeHead(500, { 'Content-Type': 'text/plain' }).end('error\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.http.host, () => resolve());
    });
    this.server = server;
    this.logger.log(`metrics on http://${this.config.http.host}:${this.port}/metrics`);
  }

  /** The port it listens on (METRICS_PORT=0 picks one), or null. */
  get port(): number | null {
    return (this.server?.address() as AddressInfo | null)?.port ?? null;
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
