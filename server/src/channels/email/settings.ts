import type { AdapterChannel, AdapterContext } from '../types.ts';

/** One of the mailbox's servers as stored: settings hold everything but the password, kept among the secrets. */
export type MailServer = { host: string; port: number; secure: boolean; login: string; password: string };

/** TLS from the first byte on the ports that mean it (IMAPS 993, SMTPS 465); STARTTLS elsewhere. */
export const secureByPort = (port: number) => port === 993 || port === 465;

export function serverOf(
  channel: Pick<AdapterChannel, 'settings' | 'secrets'>,
  part: 'receive' | 'send',
): MailServer {
  const s = (channel.settings[part] ?? {}) as Partial<MailServer>;
  return {
    host: String(s.host ?? ''),
    port: Number(s.port ?? 0),
    secure: s.secure ?? secureByPort(Number(s.port ?? 0)),
    login: String(s.login ?? ''),
    password: channel.secrets[part === 'receive' ? 'receivePassword' : 'sendPassword'] ?? '',
  };
}

/** The mailbox's own address (From of our replies). */
export const addressOf = (channel: Pick<AdapterChannel, 'settings'>) =>
  String(channel.settings.address ?? '');

/** The part after @: the domain of our Message-IDs. */
export const domainOf = (address: string) => address.split('@')[1]?.toLowerCase() || 'smartconnect.local';

/** How long connecting and each answer may take before the server counts as unreachable. */
export const timeouts = (ctx: AdapterContext) => {
  const ms = Number(ctx.env.EMAIL_TIMEOUT_MS) || 20_000;
  return { connectionTimeout: ms, greetingTimeout: ms, socketTimeout: Math.max(ms, 5 * 60_000) };
};

/** How often a mailbox whose server has no IDLE is read (EMAIL_POLL_INTERVAL_MS, 60 s by default). */
export const pollIntervalMs = (ctx: AdapterContext) => Number(ctx.env.EMAIL_POLL_INTERVAL_MS) || 60_000;

/** Which mailbox a cursor belongs to: another server or login is another mailbox, read from its own start. */
export const mailboxKey = (s: Pick<MailServer, 'host' | 'port' | 'login'>) =>
  `${s.login.toLowerCase()}@${s.host.toLowerCase()}:${s.port}`;
