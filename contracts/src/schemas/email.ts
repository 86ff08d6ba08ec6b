import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/** Limits of the e-mail channel's fields (§3 Channel e-mail: server host, port, login, password, protocol). */
export const EMAIL_CHANNEL_LIMITS = {
  hostMax: 253,
  loginMax: 255,
  passwordMax: 1024,
  addressMax: 254,
} as const;

const required = (max: number) =>
  z.string(M.requiredFields).trim().min(1, M.requiredFields).max(max, M.valueIncorrect);

/** A host name or an IP address literal, as a mail client takes it. */
const host = required(EMAIL_CHANNEL_LIMITS.hostMax).refine(
  (v) =>
    /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\.?$/.test(v) ||
    /^[0-9a-fA-F:]+$/.test(v),
  M.valueIncorrect,
);

/** §5 'E-mail port numeric': a whole number 1..65535 (a numeric string, as a form types it, is taken too). */
const port = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.number(M.portNumeric).int(M.portNumeric).min(1, M.portNumeric).max(65535, M.portNumeric),
);

const server = <P extends 'imap' | 'smtp'>(protocol: P) =>
  z.object(
    {
      host,
      port,
      /** TLS from the first byte (993, 465); false: plain, upgraded with STARTTLS when the server offers it. Absent: by the port. */
      secure: z.boolean(M.valueIncorrect).optional(),
      login: required(EMAIL_CHANNEL_LIMITS.loginMax),
      /** Write-only: stored encrypted, never answered. */
      password: z
        .string(M.requiredFields)
        .min(1, M.requiredFields)
        .max(EMAIL_CHANNEL_LIMITS.passwordMax, M.valueIncorrect),
      protocol: z.literal(protocol, M.valueIncorrect).default(protocol),
    },
    M.requiredFields,
  );

export const emailReceiveFields = server('imap');
export const emailSendFields = server('smtp');

/** The mailbox's own fields of a create body: `{address, receive: {...imap}, send: {...smtp}}`. */
export const emailCreateFields = z.object({
  address: z
    .string(M.emailIncorrect)
    .trim()
    .max(EMAIL_CHANNEL_LIMITS.addressMax, M.emailIncorrect)
    .pipe(z.email(M.emailIncorrect)),
  receive: emailReceiveFields,
  send: emailSendFields,
});

/** An update: any of the three; a server block without a password keeps the stored one. */
export const emailUpdateFields = z
  .object({
    address: emailCreateFields.shape.address,
    receive: emailReceiveFields.extend({ password: emailReceiveFields.shape.password.optional() }),
    send: emailSendFields.extend({ password: emailSendFields.shape.password.optional() }),
  })
  .partial();

/** A server block as the API shows it: everything but the password. */
export type EmailServerSettings = {
  host: string;
  port: number;
  secure: boolean;
  login: string;
  protocol: string;
};
export type EmailChannelSettings = {
  address: string;
  receive: EmailServerSettings;
  send: EmailServerSettings;
};
