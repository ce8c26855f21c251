import { createHash } from 'node:crypto';

/** Largest logo accepted (multer's limit: a larger upload stops being read there). */
export const LOGO_MAX_BYTES = 1024 * 1024;

/** The multipart field names a logo upload may use. */
export const LOGO_FIELDS = ['logo', 'file'] as const;

/**
 * What the bytes are, by their magic numbers: PNG, JPEG, GIF or WebP, else null. The client's Content-Type
 * is never believed (an SVG or HTML page sent as image/png is refused): the stored type is the one found
 * here, and the served answer carries nosniff and a CSP that runs nothing.
 */
export function sniffImage(b: Buffer): string | null {
  const starts = (sig: number[], at = 0) =>
    b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38, 0x37, 0x61]) || starts([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]))
    return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8) && b.length >= 16)
    return 'image/webp';
  return null;
}

export const sha256Hex = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Where a domain's logo is served (public: sign-in pages show it); `v` changes with the bytes. */
export function logoUrl(
  publicBaseUrl: string,
  domainId: string,
  sha256: string | null | undefined,
): string | null {
  if (!sha256) return null;
  return `${publicBaseUrl.replace(/\/+$/, '')}/API/auth/v1/system_domains/${domainId}/logo/?v=${sha256.slice(0, 12)}`;
}
