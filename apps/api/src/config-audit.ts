import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The audit trail's settings (issue #46): the database role that owns the schema, and the key
 * the chain is sealed with. Kept beside config.ts, which takes these variables into its
 * environment's schema.
 */
export const auditEnv = {
  // The schema's owner: runs the migrations. Without it, DATABASE_URL's role does, and owns
  // the tables it serves from (the trail is then not protected from that role).
  DATABASE_OWNER_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  // The key every link of the chain and every checkpoint is sealed with; made once and kept in
  // DATA_DIR when unset. Processes sharing one database must share it.
  AUDIT_SIGNING_KEY: z.string().min(32).optional(),
};

export interface AuditConfig {
  databaseOwnerUrl: string | undefined;
  auditSigningKey: string;
}

export function auditConfig(
  e: { DATABASE_OWNER_URL?: string | undefined; AUDIT_SIGNING_KEY?: string | undefined },
  dataDir: string,
): AuditConfig {
  return {
    databaseOwnerUrl: e.DATABASE_OWNER_URL,
    auditSigningKey: e.AUDIT_SIGNING_KEY ?? persistedSigningKey(dataDir),
  };
}

/** Where the key made for a DATA_DIR is kept (read by `npm run audit:verify` too). */
export const SIGNING_KEY_FILE = '.audit-signing-key';

/**
 * Without AUDIT_SIGNING_KEY, a key is made once and kept in DATA_DIR (mode 0600), as the
 * session secret is: outside the database, so that whoever can write the database's tables
 * cannot seal a link.
 */
export function persistedSigningKey(dataDir: string): string {
  const file = path.join(dataDir, SIGNING_KEY_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}
