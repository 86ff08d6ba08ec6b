import type { Attachment, ChannelType } from '@smartconnect/contracts';
import type { Outbound } from '../lib/outbound.ts';

/** A customer message as every adapter hands it to ingest, whatever the provider's shape. */
export type InboundMessage = {
  externalMessageId: string;
  client: { externalId: string; name: string };
  text: string;
  attachments: Attachment[];
};

/** What the outbox asks an adapter to deliver: our message, already serialised for the provider. */
export type OutboundPayload = {
  event: 'message.created' | 'message.updated';
  channelId: string;
  chatId: string;
  messageId: string;
  client: { externalId: string };
  text: string;
  attachments: Attachment[];
  createdAt: string;
  editedAt: string | null;
};

/** The channel as adapters see it: decrypted secrets, never the row. */
export type AdapterChannel = {
  id: string;
  webhookUrl: string | null;
  inboundKeyHash: string;
  secrets: Record<string, string>;
};

/** What an adapter may use of the server: the guarded client for every request to a URL outside. */
export type AdapterContext = { outbound: Outbound };

export type SendResult = { ok: true } | { ok: false; retryable: boolean; error: string };

export type InboundRequest = { headers: Record<string, string | string[] | undefined>; body: unknown };

/** One provider behind one interface (CONVENTIONS.md "Channels"): the rest of the server never switches on type. */
export type ChannelAdapter = {
  type: ChannelType;
  /** New secrets for a channel being created (signing keys, provider credentials). */
  connect(): { secrets: Record<string, string> };
  /** True when the inbound request really comes from this channel's provider. */
  verify(channel: AdapterChannel, req: InboundRequest): boolean;
  /** The provider payload as an InboundMessage; throws a validation AppError when malformed. */
  normalize(body: unknown): InboundMessage;
  /** Delivers one outbound payload; says whether a failure is worth retrying. */
  send(
    ctx: AdapterContext,
    channel: AdapterChannel,
    deliveryId: string,
    payload: OutboundPayload,
  ): Promise<SendResult>;
};
