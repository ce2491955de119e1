import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { PassThrough, type Readable } from 'node:stream';
import path from 'node:path';

/** Where uploaded files live. Local disk under DATA_DIR/files by default. */
export interface FileStorage {
  /** Stores bytes under a key such as `imports/<id>.csv`. */
  put(key: string, content: Buffer): Promise<void>;
  /** Writes a stream to a key without holding it in memory; answers the bytes written. */
  putStream(key: string, content: Readable): Promise<number>;
  get(key: string): Promise<Buffer>;
  /**
   * Reads a file as a stream, so large uploads are never held in memory whole; `range` reads
   * the bytes from `start` to `end` (inclusive) only.
   */
  stream(key: string, range?: { start: number; end: number }): Readable;
  remove(key: string): Promise<void>;
  /**
   * Runs `use` with the file at a path on this machine, for a process of the app's own that
   * reads it there (the drawing process: a large file handed over IPC is copied on the event
   * loop, 0.2 s for 39 MB). On disk, the file's own path; in object storage, a copy in the
   * system's temporary folder for as long as `use` runs.
   */
  withLocalPath<T>(key: string, use: (filePath: string) => Promise<T>): Promise<T>;
  /** Whether the storage answers (the ready check's `storage`). */
  check(): Promise<boolean>;
}

/** A file the database names but the storage does not hold. The error handler answers FILE_MISSING. */
export class MissingFileError extends Error {
  readonly code = 'FILE_MISSING';
  constructor(readonly key: string) {
    super(`stored file ${key} is missing`);
  }
}

export function localFileStorage(root: string): FileStorage {
  const resolve = (key: string) => {
    const full = path.resolve(root, key);
    // Keys come from our own code, but a key must never step outside the root.
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error(`bad storage key ${key}`);
    return full;
  };
  return {
    async put(key, content) {
      const full = resolve(key);
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, content);
    },
    async putStream(key, content) {
      const full = resolve(key);
      await mkdir(path.dirname(full), { recursive: true });
      let bytes = 0;
      content.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      await pipeline(content, createWriteStream(full));
      return bytes;
    },
    get: (key) => readFile(resolve(key)).catch((error: unknown) => missingIfAbsent(error, key)),
    stream: (key, range) => streamOf(key, () => createReadStream(resolve(key), range)),
    remove: (key) => rm(resolve(key), { force: true }),
    withLocalPath: (key, use) => use(resolve(key)),
    async check() {
      await mkdir(root, { recursive: true });
      await access(root, constants.W_OK);
      return true;
    },
  };
}

/**
 * A stream of a stored file that is handed out at once and filled once the file is open
 * (object storage answers asynchronously). A missing file fails it with MissingFileError, before
 * its first byte, so the error handler answers FILE_MISSING rather than 500; a consumer that stops
 * early (readHead) closes the source too.
 */
export function streamOf(key: string, open: () => Readable | Promise<Readable>): Readable {
  const out = new PassThrough();
  Promise.resolve()
    .then(open)
    .then(
      (source) => {
        source.on('error', (error) => out.destroy(isAbsent(error) ? new MissingFileError(key) : error));
        out.on('close', () => source.destroy());
        source.pipe(out);
      },
      (error: unknown) => out.destroy(isAbsent(error) ? new MissingFileError(key) : (error as Error)),
    );
  return out;
}

/** A file that is not there: ENOENT on disk, NoSuchKey (or a 404) in object storage. */
function isAbsent(error: unknown): boolean {
  if (error instanceof MissingFileError) return true;
  const e = error as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } };
  return e.code === 'ENOENT' || e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

function missingIfAbsent(error: unknown, key: string): never {
  if (isAbsent(error)) throw new MissingFileError(key);
  throw error;
}

/** The first `length` bytes of a stored file (fewer if it is shorter), without reading the rest. */
export async function readHead(storage: FileStorage, key: string, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let read = 0;
  const stream = storage.stream(key);
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      read += (chunk as Buffer).length;
      if (read >= length) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, length);
}

/** The bytes of a stored file from `start`, at most `length` of them (fewer at its end). */
export async function readRange(storage: FileStorage, key: string, start: number, length: number): Promise<Buffer> {
  if (length <= 0) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of storage.stream(key, { start, end: start + length - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
