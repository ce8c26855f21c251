import { JpegStreamError, splitJpegs } from './jpeg-stream.js';

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
