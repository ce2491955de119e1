/**
 * What kind of image a file is, by its first bytes, never by its name: a renamed `.exe`
 * is not a PNG.
 */
export type ImageType = 'image/png' | 'image/jpeg';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

export function imageTypeOf(head: Uint8Array): ImageType | null {
  const starts = (signature: number[]) => signature.every((byte, i) => head[i] === byte);
  if (starts(PNG)) return 'image/png';
  if (starts(JPEG)) return 'image/jpeg';
  return null;
}
