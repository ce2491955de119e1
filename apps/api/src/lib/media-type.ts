/**
 * What kind of document or video a file is, read from its bytes, never from its name: a
 * renamed text file is not a PDF, and a Word document is a ZIP but not a spreadsheet.
 * The companion of `image-type.ts`, for the Season Results Summary's sheet and video.
 */
export type SheetType = 'application/pdf' | 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export type VideoType = 'video/mp4' | 'video/quicktime';

const XLSX: SheetType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length));

/** PDF (`%PDF-` first) or XLSX (a ZIP holding the parts of a workbook). */
export function sheetTypeOf(bytes: Uint8Array): SheetType | null {
  if (ascii(bytes, 0, 5) === '%PDF-') return 'application/pdf';
  const names = zipEntryNames(bytes);
  if (names?.has('[Content_Types].xml') && names.has('xl/workbook.xml')) return XLSX;
  return null;
}

/** The ISO base media brands of MP4 files (video; M4A audio and HEIC images are left out). */
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'mp71',
  'avc1',
  'M4V ',
  'M4VH',
  'M4VP',
  'dash',
  'MSNV',
  'mmp4',
  'XAVC',
]);
/** Atoms an old QuickTime file may begin with, before `ftyp` existed. */
const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/** MP4 or MOV, from the first atom (`ftyp` and its major brand); needs the first 12 bytes. */
export function videoTypeOf(head: Uint8Array): VideoType | null {
  if (head.length < 12) return null;
  const atom = ascii(head, 4, 4);
  if (atom === 'ftyp') {
    const brand = ascii(head, 8, 4);
    if (brand === 'qt  ') return 'video/quicktime';
    return MP4_BRANDS.has(brand) ? 'video/mp4' : null;
  }
  return QUICKTIME_ATOMS.has(atom) ? 'video/quicktime' : null;
}

/**
 * The entry names of a ZIP archive, from its central directory (found through the end
 * record), or null when the bytes are not a well-formed ZIP. Nothing is unpacked.
 */
export function zipEntryNames(bytes: Uint8Array): Set<string> | null {
  if (bytes.length < 22 || !(bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04)) {
    return null;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is the last thing in the file, followed by a comment of at most 65,535 bytes.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const names = new Set<string>();
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || view.getUint32(at, true) !== 0x02014b50) return null;
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength > end) return null;
    names.add(new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
