import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

/** BOUNCE_IMAP_URL and BOUNCE_IMAP_POLL_SECONDS, as loadConfig reads them. */
const base = () => ({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pss-config-')), SESSION_SECRET: 'x'.repeat(40) });

describe('the bounce mailbox configuration', () => {
  it('is off without BOUNCE_IMAP_URL; read every 30 s by default', () => {
    expect(loadConfig(base()).bounceMailbox).toBeUndefined();
    expect(
      loadConfig({ ...base(), BOUNCE_IMAP_URL: 'imaps://bounces:pw@mail.example.org/INBOX' }).bounceMailbox,
    ).toEqual({
      url: 'imaps://bounces:pw@mail.example.org/INBOX',
      pollMs: 30_000,
    });
    expect(
      loadConfig({ ...base(), BOUNCE_IMAP_URL: 'imap://u:p@127.0.0.1:1143/INBOX', BOUNCE_IMAP_POLL_SECONDS: '0.5' })
        .bounceMailbox,
    ).toEqual({ url: 'imap://u:p@127.0.0.1:1143/INBOX', pollMs: 500 });
  });

  it('refuses what is not an IMAP URL, or a poll out of range, naming the variable and never the password', () => {
    for (const env of [
      { BOUNCE_IMAP_URL: 'https://bounces:hunter2-secret@mail.example.org/' },
      { BOUNCE_IMAP_URL: 'imap://bounces:hunter2-secret@' },
      { BOUNCE_IMAP_URL: 'imap://u:p@h/INBOX', BOUNCE_IMAP_POLL_SECONDS: '0' },
      { BOUNCE_IMAP_URL: 'imap://u:p@h/INBOX', BOUNCE_IMAP_POLL_SECONDS: 'often' },
    ]) {
      let error: unknown;
      try {
        loadConfig({ ...base(), ...env });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect(String(error)).toMatch(/BOUNCE_IMAP_(URL|POLL_SECONDS)/);
      expect(String(error)).not.toContain('hunter2');
    }
  });
});
