/** The stream of JPEG images ffmpeg wrote to its stdout was cut or is not JPEG. */
export class JpegStreamError extends Error {}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const standalone = (m: number) => m === 0x01 || (m >= 0xd0 && m <= 0xd7);

/**
 * The images of a stream of concatenated JPEG files (ffmpeg's `-f image2pipe -c:v mjpeg`), each from its SOI
 * to its EOI marker. Walks the markers by their lengths, and the entropy-coded data after each SOS to the next
 * marker (a 0xFF there is followed by a stuffed 0x00 or a restart marker), so bytes that look like a marker
 * inside a table or the picture never split an image.
 */
export function splitJpegs(data: Buffer): Buffer[] {
  const images: Buffer[] = [];
  let i = 0;
  const byte = (at: number) => {
    if (at >= data.length) throw new JpegStreamError('the image stream ends inside an image');
    return data[at];
  };
  while (i < data.length) {
    const start = i;
    if (byte(i) !== 0xff || byte(i + 1) !== SOI) throw new JpegStreamError('not a JPEG image');
    i += 2;
    for (;;) {
      if (byte(i) !== 0xff) throw new JpegStreamError('not a JPEG marker');
      const marker = byte(i + 1);
      if (marker === 0xff) {
        i += 1; // a fill byte before the marker
        continue;
      }
      i += 2;
      if (marker === EOI) break;
      if (standalone(marker)) continue;
      i += (byte(i) << 8) | byte(i + 1);
      if (marker !== SOS) continue;
      while (byte(i) !== 0xff || byte(i + 1) === 0x00 || (byte(i + 1) >= 0xd0 && byte(i + 1) <= 0xd7)) i++;
    }
    images.push(data.subarray(start, i));
  }
  return images;
}

/** A JPEG's width and height, from its start-of-frame header (SOF0 – SOF15 but DHT, JPG, DAC); null if none. */
export function jpegSize(image: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < image.length) {
    if (image[i] !== 0xff) return null;
    const marker = image[i + 1];
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (standalone(marker)) {
      i += 2;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: image.readUInt16BE(i + 5), width: image.readUInt16BE(i + 7) };
    if (marker === SOS || marker === EOI) return null;
    i += 2 + image.readUInt16BE(i + 2);
  }
  return null;
}
