import path from 'node:path';
import { parseS3Url, s3FileStorage, type S3Location } from './s3-storage.js';
import { localFileStorage, type FileStorage } from './storage.js';

/** Where the app's files live: a folder of this machine (the default), or an S3-protocol bucket. */
export type StorageSetting = { kind: 'local'; root: string } | { kind: 's3'; location: S3Location };

/** STORAGE_URL read: unset or '' is DATA_DIR/files; `s3://…` a bucket (s3-storage.ts). Throws on a bad URL. */
export function storageSetting(storageUrl: string | undefined, dataDir: string): StorageSetting {
  if (!storageUrl) return { kind: 'local', root: path.join(dataDir, 'files') };
  return { kind: 's3', location: parseS3Url(storageUrl) };
}

export function openFileStorage(setting: StorageSetting): FileStorage {
  return setting.kind === 'local' ? localFileStorage(setting.root) : s3FileStorage(setting.location);
}
