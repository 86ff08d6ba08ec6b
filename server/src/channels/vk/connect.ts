import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import type { AdapterChannel, AdapterContext, Connected } from '../types.ts';
import { callVk, VK_API_VERSION } from '../vk_bot/api.ts';
import { checkCommunity, refusal } from '../vk_bot/connect.ts';

/**
 * The events the channel reads, as for the Callback API (vk_bot): messages in, our messages' echo (Delivered), read
 * marks, and the client allowing or forbidding the community's messages.
 */
export const VK_LONG_POLL_EVENTS = {
  message_new: 1,
  message_reply: 1,
  message_read: 1,
  message_allow: 1,
  message_deny: 1,
} as const;

/** The community's Long Poll server (groups.getLongPollServer): where to ask, the key and the latest event number. */
export type LongPollServer = { server: string; key: string; ts: string };

export const longPollServer = (ctx: AdapterContext, token: string, groupId: string) =>
  callVk<LongPollServer>(ctx, token, 'groups.getLongPollServer', { group_id: groupId });

/**
 * Checks the community token as the Callback API channel does (checkCommunity), then turns the Bots Long Poll API
 * on at our API version with the message events (groups.setLongPollSettings, which needs the community management
 * right). A token without that right still works when the admin turned Long Poll on in the community's settings:
 * groups.getLongPollServer answering is the proof. When neither works, the refusal's reason `longpoll` tells the
 * admin what to turn on. Nothing is registered at VK that the channel's end would have to remove.
 */
export async function connectVk(
  ctx: AdapterContext,
  _channel: { id: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const token = (input.token as string | undefined) ?? current?.secrets.token;
  const groupId = (input.groupId as string | undefined) ?? (current?.settings.groupId as string | undefined);
  if (!token) throw new AppError('validationException', { token: M.tokenIncorrect });
  if (!groupId) throw new AppError('validationException', { groupId: M.tokenIncorrect });
  const group = await checkCommunity(ctx, token, groupId, current);
  const unreachable = () => {
    throw refusal('unreachable');
  };
  const set = await callVk<number>(ctx, token, 'groups.setLongPollSettings', {
    group_id: groupId,
    enabled: 1,
    api_version: VK_API_VERSION,
    ...VK_LONG_POLL_EVENTS,
  }).catch(unreachable);
  if (!set.ok) {
    const server = await longPollServer(ctx, token, groupId).catch(unreachable);
    if (!server.ok)
      throw refusal('longpoll', `${set.code}: ${set.message}; ${server.code}: ${server.message}`);
  }
  return {
    settings: { groupId, name: group.name ?? null, screenName: group.screen_name ?? null },
    secrets: { token },
  };
}
