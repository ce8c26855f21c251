import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { loadFfmpegConfig } from '../../src/platform/files/ffmpeg-binary.js';
import type { TestApp } from './create-test-app.js';
import { waitFor } from './wait-for.js';

export const FILES = '/API/files/v1';
export const JOBS = '/API/jobs/v1/jobs';

/** A small real video (2 s of ffmpeg's test pattern, H.264 in MP4), made by the ffmpeg keyframes use (FFMPEG_PATH). */
export function makeVideo(seconds = 2): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-video-'));
  try {
    const out = join(dir, 'v.mp4');
    execFileSync(loadFfmpegConfig(process.env, []).path, [
      '-nostdin',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=duration=${seconds}:size=320x240:rate=25`,
      '-pix_fmt',
      'yuv420p',
      '-y',
      out,
    ]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A local S3-compatible server (s3rver) on loopback with one bucket; `env` configures the app for it. */
export async function startS3(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  // the SDK's usual environment credentials (s3rver accepts these)
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await client.send(new CreateBucketCommand({ Bucket: 'portcullis-test' }));
  client.destroy();
  return {
    env: {
      FILES_STORAGE: 'S3',
      S3_BUCKET: 'portcullis-test',
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: 'objects/',
    },
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every file under `dir` (relative paths). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p, `${rel}${name}/`);
      else out.push(`${rel}${name}`);
    }
  };
  try {
    walk(dir, '');
  } catch {
    // no directory yet: nothing stored
  }
  return out;
}

/** The app on a real port (the raw-socket tests need one: an interrupted upload, concurrent chunks). */
export async function listen(t: TestApp): Promise<number> {
  const server = t.app.getHttpServer() as http.Server;
  if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as AddressInfo).port;
}

/** The path and query of an absolute upload/download URL (supertest and the raw client take paths). */
export const pathOf = (url: string): string => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A PUT through a real socket; with `cut`, only `cut.after` bytes are sent, and once `cut.when` resolves (the
 * service is storing them) the socket is destroyed.
 */
export function rawPut(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  cut?: { after: number; when: () => Promise<unknown> },
): Promise<RawAnswer | 'cut'> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'PUT', headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', (err) => (cut === undefined ? reject(err) : resolve('cut')));
    if (cut === undefined) {
      req.end(body);
      return;
    }
    req.write(body.subarray(0, cut.after));
    void cut.when().then(
      () => {
        req.destroy();
        resolve('cut');
      },
      (err: unknown) => reject(err as Error),
    );
  });
}

/** A supertest parser that keeps a binary body as a Buffer. */
export function binary(res: unknown, done: (err: Error | null, body: Buffer) => void): void {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}

/**
 * Closes an uploaded file, asks for its keyframes and waits (bounded) for the KEYFRAMES job to end: the job as
 * the jobs API answers it then (FINISHED or FAILED).
 */
export async function closeAndExtractKeyframes(
  t: TestApp,
  h: Record<string, string>,
  assetId: string,
  fileId: string,
  ms = 20_000,
): Promise<{ status: string; [k: string]: unknown }> {
  await t.http
    .patch(`${FILES}/assets/${assetId}/files/${fileId}/`)
    .set(h)
    .send({ status: 'CLOSED' })
    .expect(200);
  const { job_id } = (
    await t.http.post(`${FILES}/assets/${assetId}/files/${fileId}/keyframes/`).set(h).expect(200)
  ).body;
  return waitFor(async () => {
    const j = (await t.http.get(`${JOBS}/${job_id}/`).set(h).expect(200)).body;
    return j.status === 'READY' || j.status === 'STARTED' ? undefined : j;
  }, ms);
}
