import { jpegSize, JpegStreamError, splitJpegs } from './jpeg-stream.js';

const b = (...bytes: number[]) => Buffer.from(bytes);

/**
 * A JPEG's shape: SOI, a table segment whose bytes hold FF D9 (as a quantisation table may), SOS, entropy
 * data with a stuffed FF 00, a restart marker and fill bytes, then EOI.
 */
const jpeg = (fill: number) =>
  Buffer.concat([
    b(0xff, 0xd8),
    b(0xff, 0xdb, 0x00, 0x06, 0xff, 0xd9, 0xff, 0xd8),
    b(0xff, 0xda, 0x00, 0x03, 0x01),
    b(fill, 0xff, 0x00, 0x12, 0xff, 0xd0, 0x34, 0xff, 0x00),
    b(0xff, 0xff, 0xd9),
  ]);

describe('splitJpegs: the images of ffmpeg’s image2pipe output', () => {
  it('splits at each image’s EOI, not at marker-like bytes inside tables or entropy data', () => {
    const [one, two] = [jpeg(0x11), jpeg(0x22)];
    const images = splitJpegs(Buffer.concat([one, two]));
    expect(images).toHaveLength(2);
    expect(images[0].equals(one)).toBe(true);
    expect(images[1].equals(two)).toBe(true);
  });

  it('nothing is no image', () => {
    expect(splitJpegs(Buffer.alloc(0))).toEqual([]);
  });

  it('a stream cut inside an image, or not JPEG, is an error', () => {
    const one = jpeg(0x11);
    expect(() => splitJpegs(one.subarray(0, one.length - 1))).toThrow(JpegStreamError);
    expect(() => splitJpegs(Buffer.concat([one, b(0xff, 0xd8, 0xff)]))).toThrow(JpegStreamError);
    expect(() => splitJpegs(Buffer.from('GIF89a'))).toThrow('not a JPEG image');
  });
});

describe('jpegSize: a JPEG’s pixels from its frame header', () => {
  const sof = (marker: number, height: number, width: number) =>
    b(
      0xff,
      marker,
      0x00,
      0x0b,
      0x08,
      height >> 8,
      height & 0xff,
      width >> 8,
      width & 0xff,
      0x01,
      0x01,
      0x11,
      0x00,
    );

  it('reads SOF0 and SOF2 after other segments (a DHT, marked C4, is not a frame header)', () => {
    const dht = b(0xff, 0xc4, 0x00, 0x04, 0x00, 0x00);
    expect(jpegSize(Buffer.concat([b(0xff, 0xd8), dht, sof(0xc0, 240, 320), b(0xff, 0xd9)]))).toEqual({
      width: 320,
      height: 240,
    });
    expect(jpegSize(Buffer.concat([b(0xff, 0xd8), sof(0xc2, 1080, 1920), b(0xff, 0xd9)]))).toEqual({
      width: 1920,
      height: 1080,
    });
  });

  it('null when the image has no frame header before its data, or is cut', () => {
    expect(jpegSize(jpeg(0x11))).toBeNull();
    expect(jpegSize(b(0xff, 0xd8, 0xff, 0xc0, 0x00))).toBeNull();
  });
});
