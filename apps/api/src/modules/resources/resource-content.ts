import { MAX_RESOURCE_BYTES, type ResourceFile } from '@pss/contract';
import { imageTypeOf } from '../../lib/image-type.js';
import { videoTypeOf } from '../../lib/media-type.js';
import { readHead, readRange, type FileStorage } from '../../lib/storage.js';

/**
 * What an uploaded resource file is, read from its bytes and never from its name, and the
 * checks that keep a disguised file out of the library:
 *  - the kind comes from the signature (`%PDF-`, PNG, JPEG, an ISO media `ftyp` or old
 *    QuickTime atom); anything else is refused;
 *  - a name that claims another kind (an HTML page called `.pdf`, a PNG called `.mp4`) is
 *    refused, since such a file was made to be taken for what it is not;
 *  - polyglots are refused: markup in the first kilobyte (what a browser sniffs), or bytes
 *    after the format's end (a PNG after its IEND chunk, a JPEG after its end marker, a PDF
 *    after its last `%%EOF`, a video whose top-level atoms do not tile the file exactly);
 *  - each kind has its own size limit (PAYLOAD_TOO_LARGE).
 */
export type ResourceFileType = ResourceFile['content_type'];
export type FileSourceType = 'PDF' | 'IMAGE' | 'VIDEO';

export const sourceTypeOf: Record<ResourceFileType, FileSourceType> = {
  'application/pdf': 'PDF',
  'image/jpeg': 'IMAGE',
  'image/png': 'IMAGE',
  'video/mp4': 'VIDEO',
  'video/quicktime': 'VIDEO',
};

export const extensionOf: Record<ResourceFileType, string> = {
  'application/pdf': '.pdf',
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'video/mp4': '.mp4',
  'video/quicktime': '.mov',
};

const describe: Record<ResourceFileType, string> = {
  'application/pdf': 'a PDF document',
  'image/jpeg': 'a JPEG image',
  'image/png': 'a PNG image',
  'video/mp4': 'an MP4 video',
  'video/quicktime': 'a MOV video',
};

/** The extensions a name may end in for each type; other extensions say nothing either way. */
const extensionsOf: Record<ResourceFileType, string[]> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
  'image/png': ['png'],
  'video/mp4': ['mp4', 'm4v'],
  'video/quicktime': ['mov', 'qt'],
};
/** Extensions of kinds a resource may not be, which a name must not claim either. */
const foreignExtensions = new Set([
  'html',
  'htm',
  'xhtml',
  'svg',
  'js',
  'mjs',
  'xml',
  'exe',
  'bat',
  'cmd',
  'sh',
  'php',
  'gif',
  'webp',
  'zip',
  'docx',
  'xlsx',
  'txt',
  'csv',
  'rtf',
]);

export type ContentCheck = { ok: true; type: ResourceFileType } | { ok: false; message: string };

const ACCEPTED = 'The file must be a PDF, a JPEG or PNG image, or an MP4 or MOV video.';
/** Markup a browser's content sniffing would take for a page or a script. */
const MARKUP = /<(!doctype|html|head|body|script|iframe|frame|svg|object|embed|meta|link|style|form|img\s|a\s)/i;

function extensionProblem(fileName: string, type: ResourceFileType): string | null {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  const extension = base.slice(dot + 1).toLowerCase();
  if (extensionsOf[type].includes(extension)) return null;
  const known = Object.values(extensionsOf).some((list) => list.includes(extension));
  if (!known && !foreignExtensions.has(extension)) return null;
  return `The file is named ".${extension}" but its content is ${describe[type]}: rename it or upload the right file.`;
}

const PNG_END = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/** The format's end is the file's end: nothing is appended after it. */
function endProblem(type: ResourceFileType, tail: Buffer): string | null {
  const appended = 'The file has data after its end: it may be two files in one, which is not accepted.';
  if (type === 'image/png') return tail.subarray(-12).equals(PNG_END) ? null : appended;
  if (type === 'image/jpeg') {
    let end = tail.length;
    while (end > 0 && tail[end - 1] === 0x00) end -= 1; // some cameras pad with zeros
    return end >= 2 && tail[end - 2] === 0xff && tail[end - 1] === 0xd9 ? null : appended;
  }
  if (type === 'application/pdf') {
    const text = tail.toString('latin1');
    const at = text.lastIndexOf('%%EOF');
    if (at < 0) return 'The PDF has no end marker (%%EOF): it is cut short or not a PDF.';
    return /^[\s\0]*$/.test(text.slice(at + 5)) ? null : appended;
  }
  return null;
}

interface Atom {
  type: string;
  start: number;
  size: number;
  headerSize: number;
}

/**
 * The top-level atoms of an MP4/MOV file, read 16 bytes at a time through the storage's
 * ranges (the media data is never read). Null when they do not tile the file exactly.
 */
export async function topLevelAtoms(storage: FileStorage, key: string, total: number): Promise<Atom[] | null> {
  const atoms: Atom[] = [];
  let at = 0;
  while (at < total) {
    if (atoms.length > 10_000 || total - at < 8) return null;
    const header = await readRange(storage, key, at, 16);
    let size = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (!/^[\x20-\x7e]{4}$/.test(type)) return null;
    let headerSize = 8;
    if (size === 1) {
      if (header.length < 16) return null;
      size = Number(header.readBigUInt64BE(8));
      headerSize = 16;
    } else if (size === 0) {
      size = total - at;
    }
    if (size < headerSize || at + size > total) return null;
    atoms.push({ type, start: at, size, headerSize });
    at += size;
  }
  return atoms;
}

/** A video's length from its movie header (`moov` → `mvhd`), or null when it has none. */
export async function videoDuration(storage: FileStorage, key: string, atoms: Atom[]): Promise<number | null> {
  const moov = atoms.find((a) => a.type === 'moov');
  if (!moov) return null;
  let at = moov.start + moov.headerSize;
  const end = moov.start + moov.size;
  while (at + 8 <= end) {
    const header = await readRange(storage, key, at, 40);
    const size = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (type === 'mvhd') {
      const version = header[8];
      const body = version === 1 ? await readRange(storage, key, at + 8, 36) : header.subarray(8);
      const timescale = version === 1 ? body.readUInt32BE(20) : body.readUInt32BE(12);
      const duration = version === 1 ? Number(body.readBigUInt64BE(24)) : body.readUInt32BE(16);
      return timescale > 0 ? Math.round((duration / timescale) * 100) / 100 : null;
    }
    if (size < 8) return null;
    at += size;
  }
  return null;
}

/** Checks a stored upload: its kind by content, its name, its end, its size for its kind. */
export async function checkResourceFile(
  storage: FileStorage,
  upload: { key: string; fileName: string; bytes: number },
): Promise<ContentCheck | { ok: false; tooLarge: true; message: string }> {
  const head = await readHead(storage, upload.key, 1024);
  const type: ResourceFileType | null =
    head.subarray(0, 5).toString('latin1') === '%PDF-' ? 'application/pdf' : (imageTypeOf(head) ?? videoTypeOf(head));
  if (!type) return { ok: false, message: ACCEPTED };
  const kind = sourceTypeOf[type];
  if (upload.bytes > MAX_RESOURCE_BYTES[kind]) {
    return {
      ok: false,
      tooLarge: true,
      message: `${describe[type][0]!.toUpperCase()}${describe[type].slice(1)} may be at most ${MAX_RESOURCE_BYTES[kind] / 1024 / 1024} MB.`,
    };
  }
  const named = extensionProblem(upload.fileName, type);
  if (named) return { ok: false, message: named };
  if (MARKUP.test(head.toString('latin1'))) {
    return { ok: false, message: 'The file holds web page markup: it may be two files in one, which is not accepted.' };
  }
  if (kind === 'VIDEO') {
    const atoms = await topLevelAtoms(storage, upload.key, upload.bytes);
    if (!atoms) return { ok: false, message: 'The video’s structure is broken or has data appended to it.' };
    return { ok: true, type };
  }
  const tail = await readRange(storage, upload.key, Math.max(0, upload.bytes - 1024), 1024);
  const ended = endProblem(type, tail);
  return ended ? { ok: false, message: ended } : { ok: true, type };
}
