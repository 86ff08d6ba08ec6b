import { emailCreateFields } from '@smartconnect/contracts';
import { AppError, validationError } from '../../http/errors.ts';
import type { AdapterChannel, AdapterContext, Connected } from '../types.ts';
import { closeImap, failureOf, imapClient, type MailFailure, smtpTransport } from './net.ts';
import { type MailServer, mailboxKey, secureByPort, serverOf } from './settings.ts';

type ServerInput = { host: string; port: number; secure?: boolean; login: string; password?: string };

/** Logs in to the IMAP server and opens INBOX: answers where new mail starts (UIDVALIDITY, UIDNEXT). */
async function checkImap(ctx: AdapterContext, server: MailServer) {
  const client = await imapClient(ctx, server);
  try {
    await client.connect();
    const box = await client.mailboxOpen('INBOX', { readOnly: true });
    return { uidValidity: String(box.uidValidity), uidNext: box.uidNext };
  } finally {
    await closeImap(client);
  }
}

/** Connects to the SMTP server and logs in (nodemailer's verify: EHLO, STARTTLS when offered, AUTH). */
async function checkSmtp(ctx: AdapterContext, server: MailServer) {
  const transport = await smtpTransport(ctx, server);
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}

/** The stored server of `part` with what the input changes (a block without a password keeps the stored one). */
function merged(
  current: AdapterChannel | undefined,
  part: 'receive' | 'send',
  input?: ServerInput,
): MailServer {
  const stored = current ? serverOf(current, part) : undefined;
  if (!input) {
    if (!stored) throw new AppError('validationException', { [part]: 'Please fill in all required fields' });
    return stored;
  }
  return {
    host: input.host,
    port: input.port,
    secure: input.secure ?? secureByPort(input.port),
    login: input.login,
    password: input.password ?? stored?.password ?? '',
  };
}

/**
 * Tests both servers of a mailbox at once, IMAP (login, INBOX) and SMTP (login): when either fails, nothing is
 * stored and §8 'Channel creation error' names which one failed and why (`details.receive`, `details.send`:
 * address, unreachable, timeout, tls, auth, mailbox, refused). Re-run with the stored passwords when the channel is
 * activated again. New mail is read from the moment of the check on (the first UID not yet in INBOX).
 */
export async function connectEmail(
  ctx: AdapterContext,
  _channel: { id: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  let checked: Record<string, unknown> = input;
  if (!current) {
    const given = emailCreateFields.safeParse(input);
    if (!given.success) throw validationError(given.error);
    checked = given.data;
  }
  const fields = checked as {
    address?: string;
    receive?: ServerInput;
    send?: ServerInput;
  };
  const receive = merged(current, 'receive', fields.receive);
  const send = merged(current, 'send', fields.send);
  const address = fields.address ?? String(current?.settings.address ?? '');
  const [imap, smtp] = await Promise.allSettled([checkImap(ctx, receive), checkSmtp(ctx, send)]);
  if (imap.status === 'rejected' || smtp.status === 'rejected') {
    const why = (r: PromiseSettledResult<unknown>): MailFailure | undefined =>
      r.status === 'rejected' ? failureOf(r.reason) : undefined;
    throw new AppError('channelCreationException', undefined, {
      reason: 'mailbox',
      ...(why(imap) ? { receive: why(imap) } : {}),
      ...(why(smtp) ? { send: why(smtp) } : {}),
    });
  }
  const plain = ({ password: _p, ...rest }: MailServer, protocol: string) => ({ ...rest, protocol });
  return {
    settings: {
      address,
      receive: plain(receive, 'imap'),
      send: plain(send, 'smtp'),
      // Where reading starts when the channel has no cursor yet: mail from this check on.
      imapStart: (!fields.receive && (current?.settings.imapStart as object | undefined)) || {
        ...imap.value,
        mailbox: mailboxKey(receive),
      },
    },
    secrets: { receivePassword: receive.password, sendPassword: send.password },
  };
}
