import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import { OutboundRefusedError } from '../../lib/outbound.ts';
import type { AdapterContext } from '../types.ts';
import { type MailServer, timeouts } from './settings.ts';

/** Why a mail server could not be used, in our words (the web words each code in the user's language). */
export type MailFailure = 'address' | 'unreachable' | 'timeout' | 'tls' | 'auth' | 'mailbox' | 'refused';

/** A failure of imapflow or nodemailer as one of our codes; the server's own text stays in the log. */
export function failureOf(err: unknown): MailFailure {
  if (err instanceof OutboundRefusedError) return 'address';
  const e = err as { code?: string; authenticationFailed?: boolean; message?: string; responseCode?: number };
  const code = e.code ?? '';
  const text = `${code} ${e.message ?? ''}`;
  if (
    e.authenticationFailed ||
    code === 'EAUTH' ||
    /AUTHENTICATIONFAILED|authentication failed|invalid credentials/i.test(text)
  )
    return 'auth';
  if (/ETIMEDOUT|ETIMEOUT|timeout|timed out/i.test(text)) return 'timeout';
  if (
    code === 'ETLS' ||
    code.startsWith('ERR_TLS') ||
    code === 'EPROTO' ||
    /certificate|self.signed|ssl|tls/i.test(text)
  )
    return 'tls';
  if (
    /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EDNS|ECONNECTION|ESOCKET|no address/i.test(
      text,
    )
  )
    return 'unreachable';
  if (code === 'ENOMAILBOX' || /mailbox/i.test(text)) return 'mailbox';
  return 'refused';
}

/**
 * An IMAP client of a tenant's server: the host is resolved through the outbound guard (no private addresses
 * unless allowed) and the socket goes to the checked address, TLS still verifying the host's name.
 */
export async function imapClient(ctx: AdapterContext, server: MailServer): Promise<ImapFlow> {
  const address = await ctx.outbound.resolve(server.host);
  const t = timeouts(ctx);
  const client = new ImapFlow({
    host: address,
    port: server.port,
    secure: server.secure,
    servername: server.host,
    tls: { servername: server.host },
    auth: { user: server.login, pass: server.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: t.connectionTimeout,
    greetingTimeout: t.greetingTimeout,
    socketTimeout: t.socketTimeout,
  });
  // A dropped connection is reported through the calls in flight; an unheard 'error' event must not crash us.
  client.on('error', () => undefined);
  return client;
}

/** An SMTP transport to a tenant's server, on the address the outbound guard checked. */
export async function smtpTransport(ctx: AdapterContext, server: MailServer) {
  const address = await ctx.outbound.resolve(server.host);
  const t = timeouts(ctx);
  return nodemailer.createTransport({
    host: address,
    port: server.port,
    secure: server.secure,
    name: undefined,
    auth: { user: server.login, pass: server.password },
    tls: { servername: server.host },
    connectionTimeout: t.connectionTimeout,
    greetingTimeout: t.greetingTimeout,
    socketTimeout: t.connectionTimeout * 3,
  });
}

/** Closes an IMAP session politely, or drops it when the server does not answer. */
export async function closeImap(client: ImapFlow): Promise<void> {
  try {
    if (client.usable) await client.logout();
  } catch {
    client.close();
  }
}
