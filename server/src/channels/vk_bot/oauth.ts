import { randomBytes } from 'node:crypto';
import { AppError } from '../../http/errors.ts';
import { type AdapterContext, type ChannelAdapter, OAuthRefusedError, type OauthAccount } from '../types.ts';
import { callVk, VK_API_VERSION, VK_ERROR, type VkGroup, vkGroupById } from './api.ts';

/**
 * Connecting a VK community by logging in with VK (https://dev.vk.com/ru/api/access-token/authcode-flow-user and
 * .../authcode-flow-community): a user authorisation (scope groups) lists the communities the admin manages
 * (groups.get filter=admin); a second, community authorisation (group_ids) gives the chosen community's token,
 * with which `setUpCallbackApi` registers our Callback API server. The OAuth host is VK_OAUTH_BASE_URL.
 */
export const oauthBase = (ctx: AdapterContext) =>
  (ctx.env.VK_OAUTH_BASE_URL || 'https://oauth.vk.com').replace(/\/$/, '');

/** The community token's scope: messages, and photos and docs for attachments; manage for the Callback API. */
const COMMUNITY_SCOPE = 'messages,photos,docs,manage';

const env = (ctx: AdapterContext, name: string) => {
  const v = ctx.env[name];
  if (!v)
    throw new AppError('channelCreationException', undefined, { reason: 'unreachable', provider: name });
  return v;
};

type TokenAnswer = {
  access_token?: string;
  expires_in?: number;
  error?: string;
  error_description?: string;
} & Record<string, unknown>;

const accountOf = (g: VkGroup): OauthAccount => ({
  id: String(g.id),
  name: g.name ?? String(g.id),
  username: g.screen_name ?? null,
});

/** A refused token is the login's refusal; any other error is VK's. */
const refusalOf = (a: { code: number; message: string }) =>
  a.code === VK_ERROR.authFailed || a.code === VK_ERROR.accessDenied
    ? new OAuthRefusedError(a.message)
    : new Error(`${a.code}: ${a.message}`);

export const vkOauth: NonNullable<ChannelAdapter['oauth']> = {
  accountAuthorization: true,
  authorizeUrl: (ctx, p) => {
    const q = new URLSearchParams({
      client_id: env(ctx, 'VK_APP_ID'),
      redirect_uri: p.redirectUri,
      ...(p.accountId ? { group_ids: p.accountId } : {}),
      scope: p.accountId ? COMMUNITY_SCOPE : 'groups',
      response_type: 'code',
      v: VK_API_VERSION,
      state: p.state,
    });
    return `${oauthBase(ctx)}/authorize?${q}`;
  },
  /**
   * The code for a token at /access_token: a user's `access_token`, or a community's `access_token_<groupId>`.
   * A declined dialog comes back with `error=access_denied`; a bad code is `{"error":"invalid_grant"}`.
   */
  exchange: async (ctx, p) => {
    const code = p.query.code;
    if (p.query.error || typeof code !== 'string' || !code)
      throw new OAuthRefusedError(String(p.query.error ?? 'no code'));
    const q = new URLSearchParams({
      client_id: env(ctx, 'VK_APP_ID'),
      client_secret: env(ctx, 'VK_APP_SECRET'),
      redirect_uri: p.redirectUri,
      code,
    });
    const res = await ctx.outbound.fetch(`${oauthBase(ctx)}/access_token?${q}`, { method: 'GET' });
    let json: TokenAnswer;
    try {
      json = JSON.parse(res.body.toString('utf8')) as TokenAnswer;
    } catch {
      throw new OAuthRefusedError(`HTTP ${res.status}`);
    }
    if (json.error) throw new OAuthRefusedError(`${json.error}: ${json.error_description ?? ''}`);
    const token = p.accountId ? json[`access_token_${p.accountId}`] : json.access_token;
    if (typeof token !== 'string' || !token) throw new OAuthRefusedError('no token');
    return { token, expiresInSeconds: json.expires_in ? json.expires_in : null };
  },
  /**
   * The communities the user administers (groups.get filter=admin extended=1), up to 1000; with a community's
   * token (`accountId`, the second authorisation) that community, named by groups.getById.
   */
  accounts: async (ctx, token, accountId) => {
    if (accountId) {
      const got = await vkGroupById(ctx, token, accountId);
      if (!got.ok) throw refusalOf(got);
      if (!got.result || String(got.result.id) !== accountId)
        throw new OAuthRefusedError("the token is not the community's");
      return [accountOf(got.result)];
    }
    const got = await callVk<{ items?: VkGroup[] }>(ctx, token, 'groups.get', {
      filter: 'admin',
      extended: 1,
      count: 1000,
    });
    if (!got.ok) throw refusalOf(got);
    return (got.result.items ?? []).map(accountOf);
  },
};

/** The Callback API server's title in the community's settings (VK allows 14 characters). */
const SERVER_TITLE = 'SmartConnect';

/**
 * Registers our Callback API server in the community (groups.addCallbackServer with a secret key we make), reads
 * its confirmation string (groups.getCallbackConfirmationCode) and turns on the message events at our API version
 * (groups.setCallbackSettings). Answers the secret and confirmation to store; a refusal is the provider's reason
 * (a server added before the refusal is removed again).
 */
export async function setUpCallbackApi(
  ctx: AdapterContext,
  token: string,
  groupId: string,
  channelId: string,
): Promise<{ secret: string; confirmation: string; serverId: number }> {
  const unreachable = () => {
    throw new AppError('channelCreationException', undefined, { reason: 'unreachable' });
  };
  const refused = (a: { code: number; message: string }) =>
    new AppError('channelCreationException', undefined, {
      reason: 'webhook',
      provider: `${a.code}: ${a.message}`,
    });
  const secret = randomBytes(16).toString('hex');
  const url = `${ctx.publicUrl.replace(/\/$/, '')}/api/webhooks/vk_bot/${channelId}`;
  const added = await callVk<{ server_id?: number }>(ctx, token, 'groups.addCallbackServer', {
    group_id: groupId,
    url,
    title: SERVER_TITLE,
    secret_key: secret,
  }).catch(unreachable);
  if (!added.ok) throw refused(added);
  const serverId = added.result.server_id ?? 0;
  try {
    const code = await callVk<{ code?: string }>(ctx, token, 'groups.getCallbackConfirmationCode', {
      group_id: groupId,
    }).catch(unreachable);
    if (!code.ok) throw refused(code);
    const set = await callVk<number>(ctx, token, 'groups.setCallbackSettings', {
      group_id: groupId,
      server_id: serverId,
      api_version: VK_API_VERSION,
      message_new: 1,
      message_reply: 1,
      message_read: 1,
      message_allow: 1,
      message_deny: 1,
    }).catch(unreachable);
    if (!set.ok) throw refused(set);
    return { secret, confirmation: code.result.code ?? '', serverId };
  } catch (err) {
    // The server we added is not left in the community (best effort: the refusal above is what the admin sees).
    await callVk(ctx, token, 'groups.deleteCallbackServer', { group_id: groupId, server_id: serverId }).catch(
      () => undefined,
    );
    throw err;
  }
}
