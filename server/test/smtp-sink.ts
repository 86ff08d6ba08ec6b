import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; raw: string };

export type SmtpSinkOptions = {
  /** Logins the server accepts (AUTH PLAIN/LOGIN over plain text, as a local test server may); none: no AUTH needed. */
  users?: Record<string, string>;
  /** Recipients refused at RCPT TO with 550 (a permanent failure). */
  refuse?: (address: string) => boolean;
};

/** A real SMTP server on a random local port that keeps what it receives. */
export async function startSmtpSink(opts: SmtpSinkOptions = {}): Promise<{
  url: string;
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const users = opts.users;
  const server = new SMTPServer({
    authOptional: !users,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, callback) {
      if (users && auth.username && users[auth.username] === auth.password)
        return callback(null, { user: auth.username });
      const err = new Error('Invalid username or password') as Error & { responseCode: number };
      err.responseCode = 535;
      callback(err);
    },
    onRcptTo(address, _session, callback) {
      if (opts.refuse?.(address.address)) {
        const err = new Error('No such user here') as Error & { responseCode: number };
        err.responseCode = 550;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
