import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP proxy in front of the database for the outage tests: the app connects through it, and the test
 * plays the network. `stall()` stops forwarding without closing anything (a network silently dropping
 * packets: bytes are held, new connections wait unanswered); `resume()` delivers what was held; `stop()`
 * closes every connection and the listening port (a stopped server: refused); `start()` listens again on
 * the same port. `blackholeOpen()` silences the connections open now for good while new ones work (a NAT or
 * firewall that lost their state, a failover): only the app's own bounds can tell those are dead.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly waiting: (() => void)[] = [];
  private stalled = false;
  private readonly open = new Set<{ dead: boolean }>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Listens (on the port it had before, if it had one). */
  async start(): Promise<void> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Every connection closed, the port closed: connecting is refused until start(). */
  async stop(): Promise<void> {
    this.stalled = false;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.waiting.length = 0;
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  stall(): void {
    this.stalled = true;
  }

  blackholeOpen(): void {
    for (const pair of this.open) pair.dead = true;
    this.open.clear();
  }

  resume(): void {
    this.stalled = false;
    for (const go of this.waiting.splice(0)) go();
  }

  /** `url` (postgres://…) with its host and port replaced by this proxy's. */
  url(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.on('error', () => undefined).on('close', () => this.sockets.delete(client));
    const held: Buffer[] = [];
    const hold = (d: Buffer) => held.push(d);
    client.on('data', hold);
    const open = () => {
      if (client.destroyed) return;
      const upstream = connect(this.targetPort, this.targetHost);
      this.sockets.add(upstream);
      upstream
        .on('error', () => client.destroy())
        .on('close', () => {
          this.sockets.delete(upstream);
          client.destroy();
        });
      client.on('close', () => upstream.destroy());
      client.off('data', hold);
      for (const d of held) upstream.write(d);
      const pair = { dead: false };
      this.open.add(pair);
      client.on('close', () => this.open.delete(pair));
      this.forward(client, upstream, pair);
      this.forward(upstream, client, pair);
    };
    if (this.stalled) this.waiting.push(open);
    else open();
  }

  /** Bytes from `from` to `to`, held while stalled and delivered in order on resume. */
  private forward(from: Socket, to: Socket, pair: { dead: boolean }): void {
    let queue: Buffer[] = [];
    from.on('data', (d: Buffer) => {
      if (pair.dead) return;
      if (!this.stalled && queue.length === 0) {
        to.write(d);
        return;
      }
      queue.push(d);
      if (queue.length === 1) {
        this.waiting.push(() => {
          for (const q of queue) if (!to.destroyed) to.write(q);
          queue = [];
        });
      }
    });
  }
}
