// Starts the built app on an empty data directory (a fresh database every run), with an
// OpenID provider of its own for client administrators (see below), and a mail server of its own: an in-process SMTP server on 127.0.0.1 that keeps every message
// as a JSON file in `<DATA_DIR>-mail/` (see fixtures.ts: receivedMail), and refuses
// recipients at `reject.test` the way a real server refuses a mailbox (550).
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { startTestIdp } from '../../api/test/oidc-idp.mjs';

const dataDir = process.env.DATA_DIR;
if (!dataDir || !dataDir.includes('pss-e2e')) throw new Error(`refusing to clear DATA_DIR=${dataDir}`);
rmSync(dataDir, { recursive: true, force: true });

const mailDir = `${dataDir}-mail`;
rmSync(mailDir, { recursive: true, force: true });
mkdirSync(mailDir, { recursive: true });

let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  size: 5 * 1024 * 1024,
  onRcptTo(address, _session, callback) {
    if (address.address.toLowerCase().endsWith('@reject.test')) {
      const error = Object.assign(new Error('Mailbox unavailable: no such user here (e2e)'), { responseCode: 550 });
      return callback(error);
    }
    callback();
  },
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('error', callback);
    stream.on('end', () => {
      received += 1;
      const name = `${String(received).padStart(5, '0')}.json`;
      const message = {
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
        to: session.envelope.rcptTo.map((r) => r.address),
        raw: Buffer.concat(chunks).toString('utf8'),
      };
      // Written whole, then renamed, so a reader never sees half a message.
      writeFileSync(path.join(mailDir, `.${name}`), JSON.stringify(message));
      renameSync(path.join(mailDir, `.${name}`), path.join(mailDir, name));
      callback();
    });
  },
});
await new Promise((resolve, reject) => {
  smtp.once('error', reject);
  smtp.listen(0, '127.0.0.1', resolve);
});
// No STARTTLS is offered, so nodemailer talks plain SMTP to it.
process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.server.address().port}`;

// The client administrators' identity provider (oidc-provider on 127.0.0.1, see
// apps/api/test/oidc-idp.mjs): the demo administrator with a verified email, someone no
// administrator here is, and an administrator's address the provider never verified.
// Its sign-in page takes an email; e2e/oidc.spec.ts signs in there.
const publicUrl = process.env.PUBLIC_URL;
const idp = await startTestIdp({
  accounts: {
    'admin@northwind.demo.local': { email_verified: true, given_name: 'Alex', family_name: 'Northwind' },
    'nobody@elsewhere.demo.local': { email_verified: true },
    'unverified@northwind.demo.local': { email_verified: false },
  },
  client: {
    clientId: 'pss-e2e',
    clientSecret: 'pss-e2e-secret-at-the-provider',
    redirectUris: [`${publicUrl}/keycloak-landing`],
    postLogoutRedirectUris: [`${publicUrl}/logged-out`],
  },
});
process.env.OIDC_ISSUER = idp.issuer;
process.env.OIDC_CLIENT_ID = 'pss-e2e';
process.env.OIDC_CLIENT_SECRET = 'pss-e2e-secret-at-the-provider';

await import(fileURLToPath(new URL('../../api/dist/main.js', import.meta.url)));
