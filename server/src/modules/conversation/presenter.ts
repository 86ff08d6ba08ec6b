import type { ChatDto, ChatHistoryDto, MessageDto } from '@smartconnect/contracts';
import { channelCapabilities } from '../../channels/registry.ts';
import type { ChatRow, HistoryRow, MessageRow } from './queries.ts';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The one JSON shape of a chat, for the API and the websocket alike. */
export const presentChat = (c: ChatRow): ChatDto => ({
  id: c.id,
  status: c.status,
  channel: {
    id: c.channel_id,
    name: c.channel_name,
    type: c.channel_type,
    templates: channelCapabilities(c.channel_type, c.channel_settings ?? {}).templates,
  },
  team: { id: c.team_id, name: c.team_name },
  operator: c.operator_id ? { id: c.operator_id, name: c.operator_name ?? '' } : null,
  client: {
    id: c.client_id,
    name: c.client_name,
    externalId: c.client_external_id,
    personalManagerId: c.personal_manager_id,
  },
  category: c.category_id
    ? { id: c.category_id, name: c.category_name ?? '', path: c.category_path ?? [c.category_name ?? ''] }
    : null,
  session: c.session_no,
  overdueLevel: c.overdue_level,
  assignedAt: iso(c.assigned_at),
  closedAt: iso(c.closed_at),
  lastClientMessageAt: iso(c.last_client_message_at),
  lastOperatorMessageAt: iso(c.last_operator_message_at),
  lastMessage:
    c.last_message_at && c.last_message_text !== null
      ? { text: c.last_message_text, at: new Date(c.last_message_at).toISOString() }
      : null,
  topic: c.topic ?? null,
  createdAt: new Date(c.created_at).toISOString(),
  updatedAt: new Date(c.updated_at).toISOString(),
});

export const presentMessage = (m: MessageRow): MessageDto => ({
  id: m.id,
  chatId: m.chat_id,
  direction: m.direction,
  kind: m.kind,
  internal: m.internal,
  text: m.text,
  attachments: m.attachments,
  buttons: m.buttons?.length ? m.buttons : null,
  status: m.status,
  statusReason: m.status_reason ?? null,
  author: m.author_id ? { id: m.author_id, name: m.author_name ?? '' } : null,
  bot: m.bot_id ? { id: m.bot_id, name: m.bot_name ?? '' } : null,
  externalMessageId: m.external_message_id,
  editedAt: iso(m.edited_at),
  createdAt: new Date(m.created_at).toISOString(),
});

export const presentHistory = (h: HistoryRow): ChatHistoryDto => ({
  id: h.id,
  kind: h.kind,
  actorId: h.actor_id,
  fromUserId: h.from_user_id,
  toUserId: h.to_user_id,
  fromTeamId: h.from_team_id,
  toTeamId: h.to_team_id,
  categoryId: h.category_id,
  score: h.score,
  ruleId: h.rule_id,
  ruleName: h.rule_name,
  toBotId: h.to_bot_id,
  botName: h.bot_name,
  categoryPath: h.category_path,
  createdAt: new Date(h.created_at).toISOString(),
});
