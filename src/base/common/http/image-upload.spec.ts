import type { Request } from 'express';
import { isRawImage } from './image-upload.js';

const req = (contentType?: string) => ({ headers: { 'content-type': contentType } }) as unknown as Request;

describe('isRawImage', () => {
  it('takes image/<subtype> and the media range image/* itself, as the published clients send it', () => {
    for (const type of [
      'image/png',
      'image/jpeg',
      'IMAGE/PNG',
      'image/*',
      'image/* ; q=1',
      'image/svg+xml',
    ]) {
      expect(isRawImage(req(type))).toBe(true);
    }
  });

  it('anything else is not a raw image body (multer reads it, or nothing is read)', () => {
    for (const type of [
      undefined,
      '',
      'image/',
      'image/**',
      '*/*',
      'image/*x',
      'text/html',
      'multipart/form-data',
    ]) {
      expect(isRawImage(req(type))).toBe(false);
    }
  });
});
