import path from 'node:path';
import { parseS3Url } from './lib/s3-storage.js';
import { copyFilesToBucket } from './ops/storage-copy.js';

/**
 * `npm run storage:copy -- --to <STORAGE_URL> [--from <folder>]` copies an installation's files
 * into a bucket (ops/storage-copy.ts says how each is checked); `--from` is DATA_DIR/files unless
 * given. The credentials are the standard AWS variables. Exit status: 0 every file is in the
 * bucket, 1 a copy failed, 2 a bad command.
 */
function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

async function main(): Promise<number> {
  const to = argument('to');
  if (!to) {
    console.error('Usage: npm run storage:copy -- --to s3://bucket/prefix?endpoint=…&region=… [--from <folder>]');
    return 2;
  }
  let location;
  try {
    location = parseS3Url(to);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const from = path.resolve(argument('from') ?? path.join(process.env.DATA_DIR ?? './data', 'files'));
  try {
    const report = await copyFilesToBucket({ from, to: location, log: (line) => console.log(line) });
    console.log(
      `${report.copied} files copied (${report.bytes} bytes), ${report.alreadyThere} already in the bucket, ` +
        `from ${from} to s3://${location.bucket}/${location.prefix}`,
    );
    return 0;
  } catch (error) {
    console.error(`storage:copy failed: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main();
