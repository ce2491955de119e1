import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { verify } from 'otplib';
import { newTotpSecret } from './modules/auth/second-factor/totp.js';

const run = promisify(execFile);
const cli = path.join(import.meta.dirname, 'totp-cli.ts');

describe('npm run totp', () => {
  it("prints the current code of a key as it is shown (grouped by fours), one an app's check takes", async () => {
    const secret = newTotpSecret();
    const shown = secret.replace(/(.{4})/g, '$1 ').trim();
    const { stdout } = await run(process.execPath, ['--import', 'tsx', cli, ...shown.split(' ')]);
    const code = /^(\d{6}) {2}\(this code changes in \d+ s\)$/.exec(stdout.trim())?.[1];
    expect(code).toBeDefined();
    expect((await verify({ secret, token: code!, epochTolerance: 30 })).valid).toBe(true);
  });

  it('refuses what is not a key', async () => {
    await expect(run(process.execPath, ['--import', 'tsx', cli, 'not-a-key'])).rejects.toMatchObject({ code: 2 });
  });
});
