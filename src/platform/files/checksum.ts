import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

/** The checksum recorded when a file is CLOSED: `sha256:<hex>` over its stored bytes, read as a stream. */
export const checksumOf = {
  async stream(body: Readable): Promise<string> {
    const hash = createHash('sha256');
    for await (const chunk of body) hash.update(chunk as Buffer);
    return `sha256:${hash.digest('hex')}`;
  },
  empty(): string {
    return `sha256:${createHash('sha256').digest('hex')}`;
  },
};
