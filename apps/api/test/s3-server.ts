import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error s3rver ships no types: new S3rver(options).run() answers the address it listens on.
import S3rver from 's3rver';

/** The keys s3rver accepts (its fixed dummy account). */
const KEYS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export interface S3TestServer {
  /** STORAGE_URL for the bucket, under `prefix`. */
  storageUrl(prefix?: string): string;
  endpoint: string;
  bucket: string;
  /**
   * Debian's s3cmd against this server: an S3 client independent of the app's SDK. Never run
   * synchronously: the server answers from this process's event loop.
   */
  s3cmd(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }>;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver, from npm) on 127.0.0.1 with one bucket, for the tests of
 * object storage (issue #50). The standard AWS variables are set to its keys while it runs, as
 * an operator would set them for the app.
 */
export async function startS3Server(bucket = 'pss-files'): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'pss-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  // s3cmd wants a configuration file; everything it needs is on its command line.
  const config = path.join(directory, 's3cmd.cfg');
  writeFileSync(config, '[default]\n');
  const before = {
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY,
  };
  Object.assign(process.env, KEYS);
  return {
    endpoint,
    bucket,
    storageUrl: (prefix = 'app') =>
      `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&force_path_style=true`,
    s3cmd: (...args) =>
      new Promise((resolve) => {
        execFile(
          's3cmd',
          [
            '--no-ssl',
            `--host=127.0.0.1:${port}`,
            '--host-bucket=127.0.0.1:' + port,
            `--access_key=${KEYS.AWS_ACCESS_KEY_ID}`,
            `--secret_key=${KEYS.AWS_SECRET_ACCESS_KEY}`,
            '--region=us-east-1',
            `--config=${config}`,
            ...args,
          ],
          { encoding: 'utf8', timeout: 30_000 },
          (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      }),
    close: async () => {
      for (const [name, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
