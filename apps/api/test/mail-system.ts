import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitFor } from './smtp-peer.js';

/**
 * A real mail system for tests: Debian's Postfix and Dovecot, each run by the test from a
 * private configuration in a temporary directory (its own queue, its own ports on 127.0.0.1,
 * its own log), and stopped by it. Nothing of the machine's own mail setup is read or
 * touched. Postfix takes the app's mail on `smtpPort`:
 * - `localDomain` is delivered locally, where any user is accepted at SMTP time
 *   (`local_recipient_maps =`) and an unknown one is then bounced by Postfix itself;
 * - `mailboxDomain` holds mailboxes (`colleague@…` is one) in Maildirs;
 * - `bounceDomain`'s `bounces` (and `bounces+anything`, the VERP return paths) is a Maildir
 *   that Dovecot serves over IMAP on `imapPort` as user `bounces`.
 * Postfix needs root (its master process); without it, or without the packages, `start`
 * fails saying so (CI installs them: .ci/run).
 */
const output = promisify(execFile);

/**
 * Runs a command to its end, without holding its output: a daemon it starts keeps the
 * inherited pipes open, and reading them would wait for the daemon to end.
 */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} ended with ${signal ?? code}`));
    });
  });
}

export const localDomain = 'clinic.test';
export const mailboxDomain = 'ok.test';
export const bounceDomain = 'bounce.test';
const IMAP_USER = 'bounces';
/** The mail files' owner: the virtual delivery agent writes as it, Dovecot reads as it. */
const MAIL_UID = 65534;

export interface MailSystem {
  smtpUrl: string;
  imapUrl: string;
  /** Postfix's log so far. */
  log(): string;
  /** The messages in a Maildir (`bounces`, `colleague`), new and seen, with their flags (`S`: \\Seen). */
  maildir(name: string): { flags: string; text: string }[];
  /** Postfix's queue (`postqueue -p`): what it still holds. */
  queue(): Promise<string>;
  /** Starts Postfix and Dovecot, bounded in time; fails with their logs. */
  start(): Promise<void>;
  /** Stops whatever was started and removes every file; safe to call whatever happened before. */
  stop(): Promise<void>;
}

function requireTools(): void {
  const missing = ['/usr/sbin/postfix', '/usr/sbin/dovecot'].filter((tool) => !existsSync(tool));
  if (missing.length) {
    throw new Error(
      `The mail-system test needs Debian's Postfix and Dovecot (missing: ${missing.join(', ')}). ` +
        'Install them with: DEBIAN_FRONTEND=noninteractive apt-get install -y postfix dovecot-imapd (.ci/run does).',
    );
  }
  if (process.getuid?.() !== 0) throw new Error('The mail-system test must run as root: Postfix starts only as root.');
}

const userId = (name: string) => Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
const groupId = (name: string) => Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());

function postfixConfig(dir: string, smtpPort: number): void {
  const conf = path.join(dir, 'postfix');
  mkdirSync(conf);
  writeFileSync(
    path.join(conf, 'main.cf'),
    `compatibility_level = 3.6
queue_directory = ${dir}/queue
data_directory = ${dir}/data
mail_owner = postfix
myhostname = mail.pss.test
mydomain = pss.test
myorigin = $myhostname
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
relayhost =
# Any user of ${localDomain} is taken at SMTP time; local delivery then bounces an unknown one.
mydestination = ${localDomain}
local_recipient_maps =
alias_maps =
alias_database =
virtual_mailbox_domains = ${mailboxDomain}, ${bounceDomain}
virtual_mailbox_base = ${dir}/mail
virtual_mailbox_maps = inline:{ ${IMAP_USER}@${bounceDomain}=${IMAP_USER}/, colleague@${mailboxDomain}=colleague/ }
virtual_uid_maps = static:${MAIL_UID}
virtual_gid_maps = static:${MAIL_UID}
recipient_delimiter = +
maillog_file = ${dir}/postfix.log
maillog_file_prefixes = ${dir}
smtputf8_enable = no
biff = no
`,
  );
  // Debian's services, none chrooted (a chroot would need copies of /etc files in the queue).
  const services = [
    `${smtpPort} inet n - n - - smtpd`,
    'pickup unix n - n 60 1 pickup',
    'cleanup unix n - n - 0 cleanup',
    'qmgr unix n - n 300 1 qmgr',
    'rewrite unix - - n - - trivial-rewrite',
    'bounce unix - - n - 0 bounce',
    'defer unix - - n - 0 bounce',
    'trace unix - - n - 0 bounce',
    'verify unix - - n - 1 verify',
    'flush unix n - n 1000? 0 flush',
    'proxymap unix - - n - - proxymap',
    'showq unix n - n - - showq',
    'error unix - - n - - error',
    'retry unix - - n - - error',
    'discard unix - - n - - discard',
    'local unix - n n - - local',
    'virtual unix - n n - - virtual',
    'anvil unix - - n - 1 anvil',
    'scache unix - - n - 1 scache',
    'postlog unix-dgram n - n - 1 postlogd',
  ];
  writeFileSync(path.join(conf, 'master.cf'), services.join('\n') + '\n');
  mkdirSync(path.join(dir, 'queue'));
  mkdirSync(path.join(dir, 'data'));
  chownSync(path.join(dir, 'data'), userId('postfix'), -1);
}

function dovecotConfig(dir: string, imapPort: number, password: string): string {
  const home = path.join(dir, 'dovecot');
  mkdirSync(path.join(home, 'run'), { recursive: true });
  mkdirSync(path.join(home, 'state'));
  const users = path.join(home, 'users');
  writeFileSync(users, `${IMAP_USER}:{PLAIN}${password}:${MAIL_UID}:${MAIL_UID}::${dir}/mail::\n`, { mode: 0o640 });
  // Dovecot's auth process reads it as the dovecot user.
  chownSync(users, 0, groupId('dovecot'));
  const file = path.join(home, 'dovecot.conf');
  writeFileSync(
    file,
    `protocols = imap
listen = 127.0.0.1
base_dir = ${home}/run
state_dir = ${home}/state
instance_name = pss-test-${path.basename(dir)}
log_path = ${home}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${dir}/mail/${IMAP_USER}
passdb {
  driver = passwd-file
  args = ${users}
}
userdb {
  driver = passwd-file
  args = ${users}
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${imapPort}
  }
  inet_listener imaps {
    port = 0
  }
}
`,
  );
  return file;
}

/**
 * Prepares Postfix and Dovecot (configuration, ports); `start()` starts them. Take the result
 * before starting, so that `stop()` (in afterAll) runs even when the start fails or times out.
 */
export async function mailSystem(): Promise<MailSystem> {
  requireTools();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pss-mail-'));
  // The daemons' own users (postfix, dovenull, nobody) walk into it.
  chmodSync(dir, 0o755);
  const [smtpPort, imapPort] = [await freePort(), await freePort()];
  const password = `imap-${Math.random().toString(36).slice(2)}`;
  mkdirSync(path.join(dir, 'mail'));
  chownSync(path.join(dir, 'mail'), MAIL_UID, MAIL_UID);
  postfixConfig(dir, smtpPort);
  const dovecotFile = dovecotConfig(dir, imapPort, password);
  const postfixDir = path.join(dir, 'postfix');
  let postfixStarted = false;
  let dovecotStarted = false;
  let stopped = false;

  // A test process that ends without its afterAll (an error, a signal it can hear) still stops them.
  const stopAtExit = () => {
    if (stopped) return;
    if (postfixStarted) spawnSync('postfix', ['-c', postfixDir, 'stop'], { stdio: 'ignore', timeout: 10_000 });
    if (dovecotStarted) spawnSync('dovecot', ['-c', dovecotFile, 'stop'], { stdio: 'ignore', timeout: 10_000 });
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A daemon still writing as it stops: the temporary directory stays.
    }
  };
  process.once('exit', stopAtExit);

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stopAtExit);
    if (postfixStarted) await run('postfix', ['-c', postfixDir, 'stop']).catch(() => undefined);
    if (dovecotStarted) await run('dovecot', ['-c', dovecotFile, 'stop']).catch(() => undefined);
    // Both stop in the background: wait until their processes are gone before removing their files.
    const pidFiles = [path.join(dir, 'queue/pid/master.pid'), path.join(dir, 'dovecot/run/master.pid')];
    const alive = () =>
      pidFiles.some((file) => {
        const pid = existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : 0;
        if (!pid) return false;
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      });
    await waitFor(() => !alive(), 20_000, 'Postfix and Dovecot to stop').catch(() => {
      for (const file of pidFiles) {
        if (!existsSync(file)) continue;
        try {
          process.kill(Number(readFileSync(file, 'utf8').trim()), 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    });
    rmSync(dir, { recursive: true, force: true });
  };

  const start = async () => {
    try {
      await run('postfix', ['-c', postfixDir, 'check']);
      // Marked first: a start that times out half-way is still stopped.
      postfixStarted = true;
      await run('postfix', ['-c', postfixDir, 'start']);
      dovecotStarted = true;
      await run('dovecot', ['-c', dovecotFile]);
      const listening = (port: number) =>
        new Promise<boolean>((resolve) => {
          const socket = connect(port, '127.0.0.1');
          const answer = (yes: boolean) => {
            socket.destroy();
            resolve(yes);
          };
          socket.once('connect', () => answer(true));
          socket.once('error', () => answer(false));
          socket.setTimeout(1000, () => answer(false));
        });
      await waitFor(() => listening(smtpPort), 20_000, `Postfix on port ${smtpPort}`);
      await waitFor(() => listening(imapPort), 20_000, `Dovecot on port ${imapPort}`);
    } catch (error) {
      const log = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
      const logs = `${log(path.join(dir, 'postfix.log'))}${log(path.join(dir, 'dovecot/dovecot.log'))}`;
      throw new Error(`the mail system did not start: ${(error as Error).message}\n${logs}`, { cause: error });
    }
  };

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    imapUrl: `imap://${IMAP_USER}:${password}@127.0.0.1:${imapPort}/INBOX`,
    log: () => {
      const file = path.join(dir, 'postfix.log');
      return existsSync(file) ? readFileSync(file, 'utf8') : '';
    },
    maildir: (name) =>
      ['new', 'cur'].flatMap((sub) => {
        const folder = path.join(dir, 'mail', name, sub);
        if (!existsSync(folder)) return [];
        return readdirSync(folder).map((file) => ({
          flags: /:2,([A-Za-z]*)$/.exec(file)?.[1] ?? '',
          text: readFileSync(path.join(folder, file), 'utf8'),
        }));
      }),
    queue: async () => (await output('postqueue', ['-c', postfixDir, '-p'], { timeout: 10_000 })).stdout,
    start,
    stop,
  };
}
