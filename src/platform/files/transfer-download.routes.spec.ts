import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import express from 'express';
import type { Logger as PinoLogger } from 'pino';
import { requestLogger } from '../../base/common/http/request-logging.js';
import type { DownloadService } from './download.service.js';
import type { FileLinks } from './file-links.js';
import { TransferDownloadRoutes } from './transfer-download.routes.js';
import { waitFor } from '../../../test/utils/wait-for.js';

class Routes extends TransferDownloadRoutes {
  protected readonly links = {} as FileLinks;
  protected readonly downloads = {} as DownloadService;
  stream(res: express.Response, body: PassThrough, length: number): Promise<void> {
    return this.send(res, { status: 200, headers: { 'Content-Length': String(length) }, body });
  }
}

/**
 * Issue 38 item 6: a client that closes the connection once it has Content-Length bytes of a download is not
 * an error-level access-log line (debug), and one that cuts the body short is at most a warning; other routes
 * whose client goes away keep the error.
 */
describe('TransferDownloadRoutes.send: how a closed connection is logged', () => {
  let server: http.Server;
  let port: number;
  let body: PassThrough;
  const lines: { level: string; msg: string }[] = [];
  const logger = {
    isLevelEnabled: () => true,
    ...Object.fromEntries(
      ['debug', 'info', 'warn', 'error'].map((level) => [
        level,
        (_o: unknown, msg: string) => lines.push({ level, msg }),
      ]),
    ),
  } as unknown as PinoLogger;

  beforeAll(async () => {
    const app = express();
    app.use(requestLogger(logger));
    const routes = new Routes();
    app.get('/download', (_req, res) => void routes.stream(res, body, 10));
    app.get('/other', (_req, res) => {
      res.status(200).set('Content-Length', '10');
      res.write(Buffer.alloc(10));
      // never ended: the client's close is all that ends it
    });
    server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    body = new PassThrough();
    lines.length = 0;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** GETs `path`, writes `send` bytes into the body, and closes the socket once `closeAt` bytes arrived. */
  const fetchAndClose = (path: string, send: number, closeAt: number) =>
    new Promise<number>((resolve, reject) => {
      // the body's bytes wait in the stream until the route pipes them; it never ends
      if (path === '/download') body.write(Buffer.alloc(send));
      const req = http.get({ host: '127.0.0.1', port, path }, (res) => {
        let got = 0;
        res.on('data', (c: Buffer) => {
          got += c.length;
          if (got >= closeAt) {
            req.destroy();
            resolve(got);
          }
        });
      });
      req.on('error', () => undefined);
      setTimeout(() => reject(new Error('no bytes arrived')), 5000).unref();
    });

  const accessLine = () => waitFor(async () => lines.find((l) => l.msg === 'request aborted'), 5000);

  it('all Content-Length bytes handed over, then the client closes: debug', async () => {
    expect(await fetchAndClose('/download', 10, 10)).toBe(10);
    expect((await accessLine()).level).toBe('debug');
  });

  it('the client cuts the body short: warn, not error', async () => {
    expect(await fetchAndClose('/download', 4, 4)).toBe(4);
    expect((await accessLine()).level).toBe('warn');
  });

  it('a route that does not rate it keeps the error', async () => {
    await fetchAndClose('/other', 0, 10);
    expect((await accessLine()).level).toBe('error');
  });
});
