import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { closeAndExtractKeyframes, FILES, makeVideo, pathOf } from '../utils/files.js';

const ROLES = ['can_read_assets', 'can_write_assets', 'can_delete_assets'];

/**
 * Regressions of the security issue's item 3 (MEDIUM), replayed over HTTP as reported: a tenant uploads a
 * playlist (HLS, or an ffconcat list) that names a video on the server's disk by its absolute path and asks
 * for keyframes. ffmpeg followed the playlist, read the server's file and the frames came back as the
 * tenant's keyframes. Now ffmpeg reads only its one input (on stdin, no file protocol) and only demuxers of
 * an allow-list (no playlist or reference-following one): the job ends FAILED and no keyframe exists. The
 * same video uploaded as a file still gives keyframes, so the refusal is the confinement, not a broken ffmpeg.
 */
describe('security issue item 3 (MEDIUM): uploaded media read only themselves', () => {
  let t: TestApp;
  let h: Record<string, string>;
  let dir: string;
  let secret: string;
  const video = makeVideo(3);

  beforeAll(async () => {
    // a video on the server's disk, by absolute path, that no tenant uploaded
    dir = mkdtempSync(join(tmpdir(), 'portcullis-server-media-'));
    secret = join(dir, 'server-only.mp4');
    writeFileSync(secret, video);
    t = await createTestApp({ FILES_WORKER_INTERVAL_MS: '50' });
    h = bearer((await tokenFor(t, await createUser(t, { roles: ROLES }))).token);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Uploads `bytes` as a CLOSED file of a new asset, asks for keyframes, waits for the job's end. */
  const keyframesOf = async (name: string, bytes: Buffer) => {
    const asset = (await t.http.post('/API/assets/v1/assets/').set(h).send({ title: name }).expect(201)).body;
    const file = (
      await t.http
        .post(`${FILES}/assets/${asset.id}/files/`)
        .set(h)
        .send({ original_name: name, directory_path: '', size: bytes.length, type: 'FILE' })
        .expect(201)
    ).body;
    await request(t.app.getHttpServer())
      .put(pathOf(file.upload_url as string))
      .set('Content-Type', 'application/octet-stream')
      .send(bytes)
      .expect(200);
    const job = await closeAndExtractKeyframes(t, h, asset.id, file.id, 30_000);
    const frames = (await t.http.get(`${FILES}/assets/${asset.id}/keyframes/`).set(h).expect(200)).body;
    return { job, frames: frames.total as number };
  };

  const refused = async (name: string, text: string, format: string) => {
    const { job, frames } = await keyframesOf(name, Buffer.from(text));
    expect(job).toMatchObject({
      status: 'FAILED',
      message: `ffmpeg could not read the file: the ${format} format is not allowed`,
    });
    expect(frames).toBe(0);
  };

  it('the server’s video uploaded as a file gives keyframes (the control)', async () => {
    const { job, frames } = await keyframesOf('control.mp4', video);
    expect(job.status).toBe('FINISHED');
    expect(frames).toBeGreaterThanOrEqual(1);
  });

  it('an HLS playlist naming a local .mp4 by absolute path ends FAILED with no keyframe', async () => {
    await refused(
      'playlist.m3u8',
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:10',
        '#EXT-X-MEDIA-SEQUENCE:0',
        '#EXTINF:3.0,',
        secret,
        '#EXT-X-ENDLIST',
        '',
      ].join('\n'),
      'hls',
    );
  });

  it('an HLS playlist naming it as a file: URL ends FAILED with no keyframe', async () => {
    await refused(
      'playlist.m3u8',
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:3.0,\nfile://${secret}\n#EXT-X-ENDLIST\n`,
      'hls',
    );
  });

  it('an ffconcat list naming it ends FAILED with no keyframe', async () => {
    await refused(
      'list.ffconcat',
      `ffconcat version 1.0\nfile '${secret}'\nfile 'file:${secret}'\n`,
      'concat',
    );
  });
});
