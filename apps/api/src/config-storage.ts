import { z } from 'zod';
import { storageSetting, type StorageSetting } from './lib/open-file-storage.js';

/**
 * Where uploads, thumbnails, results sheets and import files live (issue #50). Kept beside
 * config.ts, which takes this variable into its environment's schema.
 */
export const storageEnv = {
  // s3://bucket/prefix?endpoint=…&region=…&force_path_style=true; unset: DATA_DIR/files. The
  // credentials are the standard AWS variables, read by the SDK (never in this URL).
  STORAGE_URL: z.string().optional(),
};

export interface StorageConfig {
  storage: StorageSetting;
}

export function storageConfig(e: { STORAGE_URL?: string | undefined }, dataDir: string): StorageConfig {
  return { storage: storageSetting(e.STORAGE_URL, dataDir) };
}
