import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const DOVECOT = '/usr/sbin/dovecot';

/**
 * Whether Dovecot can be run here. Under CI=true a missing Dovecot is a failure, never a skip (.ci/run installs
 * `dovecot-imapd`); elsewhere the e-mail tests are skipped with this reason.
 */
export function dovecotMissing(): string | false {
  if (existsSync(DOVECOT)) return false;
  if (process.env.CI === 'true')
    throw new Error('dovecot is not installed (apt-get install -y dovecot-imapd)');
  return 'dovecot is not installed (apt-get install -y dovecot-imapd)';
}

export type Dovecot = {
  host: string;
  port: number;
  /**
   * Adds mailbox users (login = address) with this password. Dovecot re-reads its user file when the file's
   * modification time (in seconds) changes: add users before they first log in, all at once.
   */
  addUsers(logins: string[], password: string): void;
  close(): Promise<void>;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** True when an IMAP server answers its greeting on the port. */
const greets = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('data', (d) => {
      resolve(d.toString().startsWith('* OK'));
      s.destroy();
    });
    s.once('error', () => resolve(false));
  });

const uidOf = (name: string) => {
  try {
    return Number(execFileSync('id', ['-u', name]).toString().trim());
  } catch {
    return undefined;
  }
};

/**
 * A real Dovecot IMAP server with a throwaway configuration in a temp dir, on a random local port: plain IMAP
 * (no TLS), PLAIN/LOGIN auth from a passwd-file, Maildir mailboxes with a Sent folder, IDLE as Dovecot has it
 * (or, with `idle: false`, not announced).
 * As root, its processes run as Debian's `dovecot` and `dovenull` users; otherwise as the current user.
 */
export async function startDovecot(opts: { idle?: boolean } = {}): Promise<Dovecot> {
  const dir = mkdtempSync(join(tmpdir(), 'sc-dovecot-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const root = process.getuid?.() === 0;
  const me = userInfo().username;
  const internal = root ? 'dovecot' : me;
  const login = root ? 'dovenull' : me;
  const mailUid = root ? (uidOf('dovecot') ?? 0) : (process.getuid?.() ?? 0);
  const mailGid = root ? mailUid : (process.getgid?.() ?? 0);
  for (const d of ['run', 'state', 'home']) mkdirSync(join(dir, d));
  if (root) chownSync(join(dir, 'home'), mailUid, mailGid);
  const users = join(dir, 'users');
  writeFileSync(users, '');
  const conf = join(dir, 'dovecot.conf');
  writeFileSync(
    conf,
    `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
instance_name = sc-test-${port}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
protocols = imap
listen = 127.0.0.1
first_valid_uid = ${Math.min(mailUid, 1)}
default_internal_user = ${internal}
default_internal_group = ${internal}
default_login_user = ${login}
service imap-login {
  inet_listener imap {
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
service anvil {
  chroot =
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${users}
}
userdb {
  driver = static
  args = uid=${mailUid} gid=${mailGid} home=${dir}/home/%u
}
mail_location = maildir:~/Maildir
${
  opts.idle === false
    ? // The capabilities announced after login, IDLE left out: clients must poll.
      'imap_capability = IMAP4rev1 LITERAL+ SASL-IR LOGIN-REFERRALS ID ENABLE SORT UIDPLUS NAMESPACE CHILDREN SPECIAL-USE LIST-EXTENDED\n'
    : ''
}namespace inbox {
  inbox = yes
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
}
`,
  );
  const child: ChildProcess = spawn(DOVECOT, ['-F', '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const log = () => {
    try {
      return readFileSync(join(dir, 'dovecot.log'), 'utf8');
    } catch {
      return '';
    }
  };
  // Ready once it answers its greeting.
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dovecot exited: ${output}\n${log()}`);
    const ok = await greets(port);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`dovecot did not start: ${output}\n${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    host: '127.0.0.1',
    port,
    addUsers(logins, password) {
      const lines = logins.map((l) => `${l}:{PLAIN}${password}\n`).join('');
      writeFileSync(users, `${readFileSync(users, 'utf8')}${lines}`);
    },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
