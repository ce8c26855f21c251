import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { portBelowEphemeralRange } from './ports.js';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status the receiver answered. */
  status: number;
}

/**
 * A webhook receiver on 127.0.0.1 for the tests: records every request, answers `status` (settable, e.g.
 * 503 to play a receiver that is down), and can wait for requests.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  status = 200;
  /** Per-path answers, over `status`. */
  readonly statusByPath = new Map<string, number>();
  private server: Server | null = null;
  private waiters: (() => void)[] = [];

  static async start(port = 0): Promise<WebhookReceiver> {
    const r = new WebhookReceiver();
    await r.listen(port);
    return r;
  }

  /**
   * A receiver on a port below the kernel's ephemeral range, where the servers other tests open on port 0
   * (supertest opens one per request) are never put: a test that closes it to play a receiver that is down
   * can count on connections being refused until it listens on that port again. (On an ephemeral port,
   * another suite running alongside was once given it in between, and answered.)
   */
  static async startBelowEphemeralRange(): Promise<WebhookReceiver> {
    for (let tries = 0; tries < 50; tries++) {
      const r = new WebhookReceiver();
      try {
        await r.listen(portBelowEphemeralRange());
        return r;
      } catch {
        // taken by something else on this machine: another one
      }
    }
    throw new Error('no free port below the ephemeral range');
  }

  get port(): number {
    return (this.server?.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests to `path`. */
  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Requests answered with a 2xx (to `path` if given). */
  delivered(path?: string): Received[] {
    return this.received.filter((r) => r.status >= 200 && r.status < 300 && (!path || r.path === path));
  }

  async listen(port = 0): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = this.statusByPath.get(req.url ?? '') ?? this.status;
        this.received.push({
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          status,
        });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'receiver says no');
        const w = this.waiters;
        this.waiters = [];
        w.forEach((f) => f());
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  /** Stops listening (connections are refused until `listen` again), closing kept-alive sockets. */
  async close(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  /** Resolves once `predicate` holds over what was received (checked at each request), or fails after `ms`. */
  async waitFor(predicate: (r: Received[]) => boolean, ms = 10_000): Promise<void> {
    const until = Date.now() + ms;
    while (!predicate(this.received)) {
      const left = until - Date.now();
      if (left <= 0)
        throw new Error(`receiver: condition not met within ${ms} ms (${this.received.length} received)`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
}
