import type { ChatBotDto, ChatBotSummaryDto } from '@smartconnect/contracts';
import type { BotRow } from './queries.ts';

export const presentBotSummary = (r: BotRow): ChatBotSummaryDto => ({
  id: r.id,
  name: r.name,
  description: r.description,
  publishedVersion: r.published_version,
  hasUnpublishedChanges: r.unpublished,
  updatedAt: new Date(r.updated_at).toISOString(),
});

export const presentBot = (r: BotRow): ChatBotDto => ({
  ...presentBotSummary(r),
  defaultMessage: r.default_message,
  draft: r.draft,
  published: r.published,
});
