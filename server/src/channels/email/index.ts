import { emailCreateFields, emailUpdateFields, MESSAGE_TEXT_MAX } from '@smartconnect/contracts';
import type { ChannelAdapter } from '../types.ts';
import { connectEmail } from './connect.ts';
import { pollEmail } from './poll.ts';
import { sendEmail } from './send.ts';

const server = (v: unknown) => {
  const s = (v ?? {}) as Record<string, unknown>;
  return {
    host: s.host ?? null,
    port: s.port ?? null,
    secure: s.secure ?? null,
    login: s.login ?? null,
    protocol: s.protocol ?? null,
  };
};

/**
 * A mailbox: customers' mail is read over IMAP (a pull channel: the job runner runs `poll`, IDLE when the server
 * has it), our replies go out over SMTP threaded into the customer's conversation. No webhook reaches it.
 */
export const emailAdapter: ChannelAdapter = {
  type: 'email',
  createSchema: emailCreateFields,
  updateSchema: emailUpdateFields,
  capabilities: {
    // An operator may write first to a client who mailed us: the mail continues the client's latest thread.
    startDialog: true,
    edit: false,
    buttons: false,
    templates: false,
    sessionWindowHours: null,
    textLimit: MESSAGE_TEXT_MAX,
    attachments: { kinds: ['image', 'document', 'audio', 'video'], maxBytes: 20 * 1024 * 1024 },
  },
  connect: connectEmail,
  // Nothing is registered at the provider: an inactive channel's mailbox is simply not read.
  disconnect: async () => undefined,
  verify: () => false,
  parse: () => [],
  send: sendEmail,
  poll: pollEmail,
  present: (settings) => ({
    address: settings.address ?? null,
    receive: server(settings.receive),
    send: server(settings.send),
  }),
};
