import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3TestServer } from '../../test/s3-server.js';
import { parseS3Url, s3FileStorage } from './s3-storage.js';
import { MissingFileError, readRange, type FileStorage } from './storage.js';

let server: S3TestServer;
let storage: FileStorage;
beforeAll(async () => {
  server = await startS3Server();
  storage = s3FileStorage(parseS3Url(server.storageUrl('unit')));
});
afterAll(() => server.close());

describe('STORAGE_URL', () => {
  it('names a bucket, a prefix, an endpoint, a region and the path style', () => {
    expect(
      parseS3Url('s3://files/pss/prod?endpoint=http%3A%2F%2F10.0.0.5%3A9000&region=eu-west-1&force_path_style=true'),
    ).toEqual({
      bucket: 'files',
      prefix: 'pss/prod',
      endpoint: 'http://10.0.0.5:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
    });
    expect(parseS3Url('s3://files')).toMatchObject({
      bucket: 'files',
      prefix: '',
      endpoint: undefined,
      forcePathStyle: false,
    });
  });

  it('refuses another scheme, credentials in the URL, an unknown parameter and a bad endpoint', () => {
    expect(() => parseS3Url('/var/files')).toThrow(/s3:\/\/bucket/);
    expect(() => parseS3Url('http://files/x')).toThrow(/s3:\/\/bucket/);
    expect(() => parseS3Url('s3://key:secret@files/x')).toThrow(/AWS_ACCESS_KEY_ID/);
    expect(() => parseS3Url('s3://files/x?acl=public-read')).toThrow(/unknown parameter acl/);
    expect(() => parseS3Url('s3://files/x?endpoint=ftp://h')).toThrow(/endpoint/);
    expect(() => parseS3Url('s3://files/x?force_path_style=yes')).toThrow(/force_path_style/);
  });
});

describe('files in an S3-protocol bucket', () => {
  it('stores, reads whole and in part, streams, and removes a file under its prefix', async () => {
    await storage.put('imports/a.csv', Buffer.from('email\nann@example.org\n'));
    expect((await storage.get('imports/a.csv')).toString()).toBe('email\nann@example.org\n');
    expect((await readRange(storage, 'imports/a.csv', 6, 3)).toString()).toBe('ann');
    const listed = await server.s3cmd('ls', '--recursive', `s3://${server.bucket}/unit/`);
    expect(listed.stdout).toContain(`s3://${server.bucket}/unit/imports/a.csv`);
    await storage.remove('imports/a.csv');
    await expect(storage.get('imports/a.csv')).rejects.toBeInstanceOf(MissingFileError);
  });

  it('takes a stream of unknown length in parts, and counts its bytes', async () => {
    // Over lib-storage's 5 MB part: a multipart upload.
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const bytes = await storage.putStream('resources/big.bin', Readable.from(Array.from({ length: 6 }, () => chunk)));
    expect(bytes).toBe(6 * chunk.length);
    expect((await storage.get('resources/big.bin')).length).toBe(bytes);
    await storage.remove('resources/big.bin');
  });

  it('fails a missing file’s stream with MissingFileError, and lends a local copy while it is used', async () => {
    const failed = await new Promise<unknown>((resolve) => storage.stream('resources/none.pdf').on('error', resolve));
    expect(failed).toBeInstanceOf(MissingFileError);
    await storage.put('resources/doc.pdf', Buffer.from('%PDF-1.7'));
    const { readFile, stat } = await import('node:fs/promises');
    let copy = '';
    expect(
      await storage.withLocalPath(
        'resources/doc.pdf',
        async (file) => ((copy = file), (await readFile(file)).toString()),
      ),
    ).toBe('%PDF-1.7');
    await expect(stat(copy)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a key that climbs out of its prefix', async () => {
    await expect(storage.put('../other/x', Buffer.from('x'))).rejects.toThrow(/bad storage key/);
    await expect(storage.put('a//b', Buffer.from('x'))).rejects.toThrow(/bad storage key/);
  });

  it('answers the ready check while the bucket answers, and not for a bucket that is not there', async () => {
    expect(await storage.check()).toBe(true);
    const missing = s3FileStorage({ ...parseS3Url(server.storageUrl()), bucket: 'no-such-bucket' });
    await expect(missing.check()).rejects.toBeTruthy();
  });
});
