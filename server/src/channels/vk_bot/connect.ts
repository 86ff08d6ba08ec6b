import { timingSafeEqual } from 'node:crypto';
import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import type { AdapterChannel, AdapterContext, Connected, RawRequest } from '../types.ts';
import { callVk, VK_ERROR, type VkGroup, vkGroupById } from './api.ts';
import { setUpCallbackApi } from './oauth.ts';

export const refusal = (reason: 'unreachable' | 'token' | 'webhook' | 'longpoll', provider?: string) =>
  new AppError('channelCreationException', undefined, { reason, ...(provider ? { provider } : {}) });

/** The community token's rights we need: messages (4096); photos (4) and docs (131072) for attachments. */
const MESSAGES_RIGHT = 4096;

/**
 * The community token's checks both VK types share: groups.getById names the channel's community (a refused token,
 * or one of another community, is 'Incorrect token/ID specified'); an edited channel keeps its community (§8 'token
 * not from current bot'); the token may send messages (groups.getTokenPermissions). Answers the community.
 */
export async function checkCommunity(
  ctx: AdapterContext,
  token: string,
  groupId: string,
  current?: AdapterChannel,
): Promise<VkGroup> {
  const unreachable = () => {
    throw refusal('unreachable');
  };
  const got = await vkGroupById(ctx, token, groupId).catch(unreachable);
  /** Whether the token's own community (groups.getById without an id) is the channel's. */
  const ownCommunity = async () => {
    const own = await vkGroupById(ctx, token, '').catch(unreachable);
    return own.ok && String(own.result?.id) === groupId;
  };
  if (!got.ok) {
    if (got.code === VK_ERROR.authFailed || got.httpStatus === 401)
      throw new AppError('validationException', { token: M.tokenIncorrect });
    if (got.code === 100) throw new AppError('validationException', { groupId: M.tokenIncorrect });
    throw refusal('token', `${got.code}: ${got.message}`);
  }
  const group = got.result;
  if (!group || String(group.id) !== groupId)
    throw new AppError('validationException', { groupId: M.tokenIncorrect });
  // §8 'token not from current bot': an edited channel keeps its community (its clients and chats are that
  // community's); a new token must be that community's own.
  const currentGroup = current?.settings.groupId as string | undefined;
  if (
    currentGroup &&
    (groupId !== currentGroup || (token !== current?.secrets.token && !(await ownCommunity())))
  )
    throw new AppError('tokenNotFromCurrentBotException', { token: M.tokenNotFromCurrentBot });
  const rights = await callVk<{ mask?: number }>(ctx, token, 'groups.getTokenPermissions').catch(unreachable);
  if (!rights.ok) {
    if (rights.code === VK_ERROR.authFailed || rights.code === VK_ERROR.accessDenied)
      throw new AppError('validationException', { token: M.tokenIncorrect });
    throw refusal('token', `${rights.code}: ${rights.message}`);
  }
  if (((rights.result.mask ?? 0) & MESSAGES_RIGHT) === 0)
    throw new AppError('validationException', { token: M.tokenIncorrect });
  return group;
}

/**
 * Checks the community token with groups.getById (a refused token, or one of another community, is 'Incorrect
 * token/ID specified') and that it may send messages (groups.getTokenPermissions). VK calls our Callback API
 * once the admin adds our URL with the confirmation string given here. Logged in with VK (`grant`, the community
 * token of the community chosen), the same checks run and then we register the Callback API server ourselves.
 */
export async function connectVkBot(
  ctx: AdapterContext,
  channel: { id: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  // Logged in with VK: `grant` is the community token of the community the second authorisation named.
  const grant = input.grant as string | undefined;
  const groupId = (input.groupId as string | undefined) ?? (current?.settings.groupId as string | undefined);
  if (grant && (!groupId || input.grantAccountId !== groupId))
    throw new AppError('validationException', { grant: M.tokenIncorrect });
  const token = grant ?? (input.token as string | undefined) ?? current?.secrets.token;
  let secret = (input.secret as string | undefined) ?? current?.secrets.secret;
  let confirmation =
    (input.confirmation as string | undefined) ?? (current?.settings.confirmation as string | undefined);
  if (!token) throw new AppError('validationException', { token: M.tokenIncorrect });
  if (!groupId) throw new AppError('validationException', { groupId: M.tokenIncorrect });
  if (!grant && !secret) throw new AppError('validationException', { secret: M.valueIncorrect });
  if (!grant && !confirmation) throw new AppError('validationException', { confirmation: M.valueIncorrect });
  const group = await checkCommunity(ctx, token, groupId, current);
  let callbackServerId: number | null = null;
  if (grant)
    ({
      secret,
      confirmation,
      serverId: callbackServerId,
    } = await setUpCallbackApi(ctx, token, groupId, channel.id));
  return {
    settings: {
      groupId,
      name: group.name ?? null,
      screenName: group.screen_name ?? null,
      confirmation: confirmation ?? null,
      // Set up by us (logged in with VK): the Callback API server we added; else kept from before, or null.
      callbackServerId: callbackServerId ?? (grant ? null : (current?.settings.callbackServerId ?? null)),
    },
    secrets: { token, secret: secret ?? '' },
  };
}

/**
 * Deactivating undoes nothing: the Callback API server stays in the community's settings (activating again uses
 * it); events of an inactive channel are not taken in.
 */
export async function disconnectVkBot(): Promise<void> {}

/**
 * The channel is deleted: the Callback API server we added (logged in with VK: `callbackServerId`) is removed with
 * groups.deleteCallbackServer (https://dev.vk.com/ru/method/groups.deleteCallbackServer); one the admin added by
 * hand is theirs. Throws when VK refuses or is out of reach (the caller logs it; the channel is deleted anyway).
 */
export async function removeVkBot(ctx: AdapterContext, channel: AdapterChannel): Promise<void> {
  const serverId = channel.settings.callbackServerId;
  if (serverId === null || serverId === undefined) return;
  const got = await callVk<number>(ctx, channel.secrets.token ?? '', 'groups.deleteCallbackServer', {
    group_id: String(channel.settings.groupId ?? ''),
    server_id: Number(serverId),
  });
  if (!got.ok) throw new Error(`groups.deleteCallbackServer refused: ${got.code} ${got.message}`);
}

/**
 * Logged in with VK again: the Callback API server the earlier login added is removed once the new one is stored
 * (with the earlier token and community, which may differ); a server the admin added by hand is left alone.
 */
export async function replaceVkBot(ctx: AdapterContext, before: AdapterChannel, after: AdapterChannel) {
  const old = before.settings.callbackServerId;
  if (old === null || old === undefined) return;
  if (old === after.settings.callbackServerId && before.settings.groupId === after.settings.groupId) return;
  await removeVkBot(ctx, before);
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * A Callback API request is the channel's when it names the channel's community (group_id) and carries its
 * secret key; the confirmation request needs only the community (VK sends it before the secret may be set).
 */
export function verifyVkBot(channel: AdapterChannel, req: RawRequest): boolean {
  const body = req.body as { type?: unknown; group_id?: unknown; secret?: unknown } | undefined;
  if (!body || typeof body !== 'object') return false;
  if (String(body.group_id ?? '') !== String(channel.settings.groupId ?? '-')) return false;
  const secret = channel.secrets.secret ?? '';
  if (body.type === 'confirmation' && body.secret === undefined) return true;
  return typeof body.secret === 'string' && secret !== '' && same(body.secret, secret);
}
