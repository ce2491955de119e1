import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { objectKey, s3ClientFor, type S3Location } from '../lib/s3-storage.js';

/**
 * `npm run storage:copy -- --to <STORAGE_URL>`: an installation's files (DATA_DIR/files, where
 * the app kept them before STORAGE_URL) copied into a bucket under the same keys, so that the
 * app, started with STORAGE_URL, serves every one of them (issue #50). Each file is checked
 * after its copy by size and SHA-256, read back from the bucket; its SHA-256 goes with it as
 * metadata, so a second run skips what is already there whole and copies only the rest: it
 * can run twice, or again after an interruption, safely. Nothing is removed from the folder.
 */
export interface CopyReport {
  copied: number;
  alreadyThere: number;
  bytes: number;
}

/** The metadata that carries a copied file's SHA-256 (x-amz-meta-sha256). */
const CHECKSUM_META = 'sha256';

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function copyFilesToBucket(options: {
  from: string;
  to: S3Location;
  client?: S3Client;
  /** Each file's line, as it goes. */
  log?: (line: string) => void;
}): Promise<CopyReport> {
  const s3 = options.client ?? s3ClientFor(options.to);
  const Bucket = options.to.bucket;
  const report: CopyReport = { copied: 0, alreadyThere: 0, bytes: 0 };
  for (const key of await filesUnder(options.from)) {
    const file = path.join(options.from, ...key.split('/'));
    const { size } = await stat(file);
    const checksum = await sha256Of(createReadStream(file));
    const Key = objectKey(options.to, key);
    const there = await s3.send(new HeadObjectCommand({ Bucket, Key })).catch((error: { name?: string }) => {
      if (error.name === 'NotFound' || error.name === 'NoSuchKey') return null;
      throw error;
    });
    if (there?.ContentLength === size && there.Metadata?.[CHECKSUM_META] === checksum) {
      report.alreadyThere += 1;
      continue;
    }
    await s3.send(
      new PutObjectCommand({
        Bucket,
        Key,
        Body: createReadStream(file),
        ContentLength: size,
        Metadata: { [CHECKSUM_META]: checksum },
      }),
    );
    // Read back whole: the bucket holds these bytes, not only an object of this name.
    const copy = await s3.send(new GetObjectCommand({ Bucket, Key }));
    const copied = await sha256Of(copy.Body as Readable);
    if (copy.ContentLength !== size || copied !== checksum) {
      throw new Error(`${key}: the copy in the bucket differs from the file (size or SHA-256)`);
    }
    report.copied += 1;
    report.bytes += size;
    options.log?.(`copied ${key} (${size} bytes)`);
  }
  return report;
}
