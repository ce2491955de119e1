import { deflateSync } from 'node:zlib';

/**
 * The demo case's patient image: a plain illustrated portrait (a head and shoulders on a
 * soft background), drawn here and encoded as a PNG so that the demo needs no binary file
 * in the repository and no image library at start.
 */
export function demoPortraitPng(size = 240): Buffer {
  const centre = size / 2;
  return encodePng(size, size, (x, y) => {
    const head = Math.hypot(x - centre, y - size * 0.38) < size * 0.17;
    // Shoulders: the top half of an ellipse rising from the bottom edge.
    const shoulders = ((x - centre) / (size * 0.36)) ** 2 + ((y - size * 1.02) / (size * 0.42)) ** 2 < 1;
    const shade = Math.round(20 * (y / size));
    return head ? [224, 186, 160] : shoulders ? [70, 110, 150] : [214 - shade, 228 - shade, 240 - shade];
  });
}

/** An 8-bit RGB PNG of `width` × `height`, each pixel's colour from `colourAt`. */
export function encodePng(width: number, height: number, colourAt: (x: number, y: number) => number[]): Buffer {
  const row = width * 3 + 1;
  const pixels = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    pixels[y * row] = 0; // filter: none
    for (let x = 0; x < width; x++) pixels.set(colourAt(x, y), y * row + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
