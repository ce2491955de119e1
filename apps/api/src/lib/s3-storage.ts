import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { MissingFileError, streamOf, type FileStorage } from './storage.js';

/**
 * Files in an S3-protocol bucket (AWS S3, MinIO, Ceph, R2, …), so that any number of app
 * processes on any number of machines share them without a shared disk (issue #50). Set by
 * `STORAGE_URL=s3://bucket/prefix?endpoint=…&region=…&force_path_style=true`; the credentials come
 * from the standard AWS variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, …), read
 * by the SDK itself, so they are never in the URL nor in a log.
 */
export interface S3Location {
  bucket: string;
  /** Keys are stored under it: `prefix/resources/…`; '' for the bucket's root. */
  prefix: string;
  /** An S3-compatible server's address; unset for AWS itself. */
  endpoint?: string;
  region: string;
  /** `bucket` in the path (`endpoint/bucket/key`), as most servers other than AWS need. */
  forcePathStyle: boolean;
}

/** Reads `s3://bucket/prefix?endpoint=…&region=…&force_path_style=true`; throws on anything else. */
export function parseS3Url(url: string): S3Location {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('STORAGE_URL must be s3://bucket/prefix?endpoint=…&region=…');
  }
  if (parsed.protocol !== 's3:' || !parsed.hostname) {
    throw new Error('STORAGE_URL must be s3://bucket/prefix?endpoint=…&region=…');
  }
  if (parsed.username || parsed.password) {
    throw new Error('STORAGE_URL takes no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  }
  const known = new Set(['endpoint', 'region', 'force_path_style']);
  for (const name of parsed.searchParams.keys()) {
    if (!known.has(name)) throw new Error(`STORAGE_URL: unknown parameter ${name}`);
  }
  const endpoint = parsed.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\//.test(endpoint)) {
    throw new Error('STORAGE_URL: endpoint must be an http:// or https:// address');
  }
  const pathStyle = parsed.searchParams.get('force_path_style');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false') {
    throw new Error('STORAGE_URL: force_path_style is true or false');
  }
  return {
    bucket: parsed.hostname,
    prefix: decodeURIComponent(parsed.pathname).replace(/^\/+|\/+$/g, ''),
    endpoint,
    region: parsed.searchParams.get('region') ?? process.env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: pathStyle === 'true',
  };
}

/** A file's key in the bucket: under the prefix. None may climb out of it or be empty. */
export function objectKey(location: S3Location, key: string): string {
  if (!key || key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error(`bad storage key ${key}`);
  }
  return location.prefix ? `${location.prefix}/${key}` : key;
}

/** The SDK's client for a location (s3FileStorage's, storage:copy's). */
export function s3ClientFor(location: S3Location): S3Client {
  return new S3Client({
    region: location.region,
    endpoint: location.endpoint,
    forcePathStyle: location.forcePathStyle,
    // The SDK's default checksums (a CRC trailer on every upload, in aws-chunked encoding) are
    // AWS's own; servers that speak the protocol without them (older MinIO, Ceph, R2, s3rver)
    // refuse or mangle such uploads. Off unless a call needs one, when an endpoint is named.
    ...(location.endpoint
      ? { requestChecksumCalculation: 'WHEN_REQUIRED' as const, responseChecksumValidation: 'WHEN_REQUIRED' as const }
      : {}),
  });
}

/** Counts the bytes that pass through it. */
function byteCounter(): Transform & { bytes: number } {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counter.bytes += chunk.length;
      callback(null, chunk);
    },
  }) as Transform & { bytes: number };
  counter.bytes = 0;
  return counter;
}

export function s3FileStorage(location: S3Location, client?: S3Client): FileStorage {
  const s3 = client ?? s3ClientFor(location);
  const Bucket = location.bucket;
  const keyOf = (key: string) => objectKey(location, key);
  const open = async (key: string, range?: { start: number; end: number }) => {
    const answer = await s3.send(
      new GetObjectCommand({ Bucket, Key: keyOf(key), Range: range && `bytes=${range.start}-${range.end}` }),
    );
    if (!answer.Body) throw new MissingFileError(key);
    return answer.Body as Readable;
  };

  const storage: FileStorage = {
    async put(key, content) {
      await s3.send(new PutObjectCommand({ Bucket, Key: keyOf(key), Body: content, ContentLength: content.length }));
    },
    async putStream(key, content) {
      // A stream of unknown length goes up in parts (lib-storage's Upload), never whole in memory.
      const counter = byteCounter();
      const upload = new Upload({ client: s3, params: { Bucket, Key: keyOf(key), Body: content.pipe(counter) } });
      content.on('error', (error) => counter.destroy(error));
      await upload.done();
      return counter.bytes;
    },
    async get(key) {
      const chunks: Buffer[] = [];
      for await (const chunk of storage.stream(key)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    stream: (key, range) => streamOf(key, () => open(key, range)),
    async remove(key) {
      await s3.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    async withLocalPath(key, use) {
      const copy = path.join(os.tmpdir(), `pss-storage-${randomUUID()}${path.extname(key)}`);
      try {
        await pipeline(storage.stream(key), createWriteStream(copy));
        return await use(copy);
      } finally {
        await rm(copy, { force: true });
      }
    },
    async check() {
      await s3.send(new HeadBucketCommand({ Bucket }));
      return true;
    },
  };
  return storage;
}
