import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { BlockedAddressError, guardedLookup, hostOf, isPublicAddress } from './target-address.js';

export interface SendResult {
  ok: boolean;
  /** The response's status; null when there was none (refused, timed out, blocked). */
  status: number | null;
  durationMs: number;
  /** What went wrong, short enough for the delivery log; null on success. */
  error: string | null;
}

/** The most of a response body kept for the delivery log; the rest is drained (up to DRAIN_LIMIT) or cut. */
const SNIPPET_BYTES = 256;
const DRAIN_LIMIT = 64 * 1024;
export const ERROR_MAX = 500;

export function truncate(text: string, max = ERROR_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * Posts one delivery with node:http(s): no redirect is ever followed (a 3xx is a failure), the whole
 * exchange is bounded by `timeoutMs`, and unless private targets are allowed every connection goes through
 * `guardedLookup` (a name is resolved, each address checked, and the socket connects to a checked one),
 * while an IP literal, which never reaches a lookup, is checked here. Node's fetch (undici) cannot take a
 * lookup without an extra dependency for its dispatcher; http.request takes one as a plain option.
 */
export class WebhookSender {
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 32 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 32 }),
  };

  constructor(private readonly o: { allowPrivate: boolean; timeoutMs: number }) {}

  async post(
    rawUrl: string,
    body: string,
    headers: Record<string, string>,
    stop: AbortSignal,
  ): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { ok: false, status: null, durationMs: 0, error: 'invalid url' };
    }
    const host = hostOf(url);
    if (!this.o.allowPrivate && isIP(host) && !isPublicAddress(host)) {
      return {
        ok: false,
        status: null,
        durationMs: 0,
        error: `${host} is not a public address (WEBHOOK_ALLOW_PRIVATE is off)`,
      };
    }
    const secure = url.protocol === 'https:';
    const timeout = AbortSignal.timeout(this.o.timeoutMs);
    const signal = AbortSignal.any([timeout, stop]);
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const done = (r: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        resolve({ ...r, durationMs: elapsed() });
      };
      const fail = (err: Error & { code?: string }) => {
        const reason = timeout.aborted
          ? `timed out after ${this.o.timeoutMs} ms`
          : stop.aborted
            ? 'aborted: the instance is shutting down'
            : err.code && !(err instanceof BlockedAddressError) && !err.message.includes(err.code)
              ? `${err.code}: ${err.message}`
              : err.message;
        done({ ok: false, status: null, error: truncate(reason) });
      };
      const options: http.RequestOptions = {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: secure ? this.agents.https : this.agents.http,
        signal,
        ...(this.o.allowPrivate ? {} : { lookup: guardedLookup as unknown as http.RequestOptions['lookup'] }),
      };
      const req = (secure ? https : http).request(url, options, (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (kept < SNIPPET_BYTES) {
            chunks.push(chunk.subarray(0, SNIPPET_BYTES - kept));
            kept += Math.min(chunk.length, SNIPPET_BYTES - kept);
          }
          if (read > DRAIN_LIMIT) res.destroy(); // the answer is not ours to read in full
        });
        const finish = () => {
          if (status >= 200 && status < 300) return done({ ok: true, status, error: null });
          const text = Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim();
          done({ ok: false, status, error: truncate(`HTTP ${status}${text ? `: ${text}` : ''}`) });
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      });
      req.on('error', fail);
      req.end(body);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
