import type { MailingStatus } from '@smartconnect/contracts';

/** The body of a live audience count: the key holds it, so a changed audience is a new count. */
export type AudienceCountInput = {
  channelId: string;
  marketingType: 'service' | 'advertising';
  audience: Record<string, unknown>;
  template: boolean;
};

/**
 * Query keys of mailings: a prefix for invalidation, the lists by status, one mailing, the live counts, the
 * organisation's mailing settings (opt-out words), the templates a channel's mailing may send.
 */
export const mailingKeys = {
  all: ['mailings'] as const,
  list: (status: MailingStatus | null) => ['mailings', 'list', status] as const,
  one: (id: string | undefined) => ['mailings', 'one', id] as const,
  audienceCount: (body: AudienceCountInput) => ['mailings', 'audience-count', body] as const,
  settings: ['mailings', 'settings'] as const,
  templates: (channelId: string | null) => ['mailings', 'templates', channelId] as const,
};
