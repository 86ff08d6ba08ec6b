import { CHANNEL_TYPE_FIELDS, FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { FormData } from 'undici';
import { AppError } from '../../http/errors.ts';
import { downloadedName, downloadMedia, mediaType, nameForType } from '../download.ts';
import { splitText } from '../telegram/send.ts';
import {
  type AdapterChannel,
  type AdapterContext,
  type ChannelAdapter,
  type Connected,
  type MediaDownload,
  type MediaRef,
  OAuthRefusedError,
  type OauthAccount,
  type OutboundMessage,
  type SendResult,
  TokenRefusedError,
} from '../types.ts';
import {
  GRAPH_VERSION,
  type GraphAnswer,
  graphBase,
  graphCall,
  hubChallenge,
  hubSignatureValid,
  isRateLimit,
  retryable,
} from './graph.ts';
import { type MessengerKind, parse } from './messenger-parse.ts';

export type { MessengerKind };

/**
 * Instagram and Facebook Messenger through Meta's Messenger Platform, connected by logging in with Facebook:
 * both send with a page access token (POST /{page-id}/messages) and receive the same `messaging` webhook; they
 * differ in the webhook's `object`, the account that receives (the page, or its Instagram business account) and
 * the permissions asked.
 */

const base = (ctx: AdapterContext) => graphBase(ctx, 'META_GRAPH_BASE_URL');
const oauthBase = (ctx: AdapterContext) =>
  (ctx.env.META_OAUTH_BASE_URL || 'https://www.facebook.com').replace(/\/$/, '');
const call = <T>(
  ctx: AdapterContext,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: Record<string, unknown> | FormData,
) => graphCall<T>(ctx, base(ctx), token, method, path, body);

/** Meta's Send API and Instagram's largest image (8 MB). */
export const MESSENGER_MEDIA_MAX = 8 * 1024 * 1024;
/** The largest attachment Meta's webhooks name (25 MB). */
export const MESSENGER_INBOUND_MAX = 25 * 1024 * 1024;
/** Longest text of one message (Messenger: 2000 characters; Instagram: 1000 bytes, kept to 1000 characters). */
const TEXT_LIMIT: Record<MessengerKind['type'], number> = { facebook: 2000, instagram: 1000 };
/** How long to wait after a rate limit answer (Meta names no Retry-After). */
const RATE_LIMIT_WAIT_MS = 60_000;
/**
 * The page's webhook fields. Messenger reports delivery and read marks in fields of their own; Instagram's seen
 * marks (`messaging_seen`) are a field of the Meta app's Instagram webhook, chosen once in the app's dashboard by
 * whoever runs the installation (README, "Instagram and Facebook Messenger"), not of the page's subscription.
 */
const SUBSCRIBED_FIELDS: Record<MessengerKind['type'], string> = {
  facebook: 'messages,messaging_postbacks,message_echoes,message_deliveries,message_reads',
  instagram: 'messages,messaging_postbacks,message_echoes',
};
/** Outside the 24-hour standard messaging window: code 10, subcode 2018278 (or 2534022 on Instagram). */
const WINDOW_SUBCODES = new Set([2018278, 2534022]);

type Account = {
  id: string;
  name?: string;
  access_token?: string;
  instagram_business_account?: { id: string; username?: string };
};

const env = (ctx: AdapterContext, name: string) => {
  const v = ctx.env[name];
  if (!v)
    throw new AppError('channelCreationException', undefined, { reason: 'unreachable', provider: name });
  return v;
};

/** GET /me/accounts with the user token: the pages it manages, with their tokens and Instagram accounts. */
async function pages(ctx: AdapterContext, token: string): Promise<GraphAnswer<{ data?: Account[] }>> {
  return call(
    ctx,
    token,
    'GET',
    '/me/accounts?fields=id,name,access_token,instagram_business_account{id,username}&limit=100',
  );
}

/** A token exchanged for a long-lived one (60 days): GET /oauth/access_token?grant_type=fb_exchange_token. */
const longLived = (ctx: AdapterContext, token: string) =>
  call<{ access_token?: string; expires_in?: number }>(
    ctx,
    '',
    'GET',
    `/oauth/access_token?${new URLSearchParams({
      grant_type: 'fb_exchange_token',
      client_id: env(ctx, 'META_APP_ID'),
      client_secret: env(ctx, 'META_APP_SECRET'),
      fb_exchange_token: token,
    })}`,
  );

/** A long-lived login is renewed this long before it expires. */
const RENEW_BEFORE_MS = 7 * 24 * 3600_000;

/**
 * Renews the login's long-lived user token a week before it expires, and with it the page token (from
 * /me/accounts again), so the channel never stops on an expired token.
 */
async function refresh(ctx: AdapterContext, channel: AdapterChannel, now: Date) {
  const expires = Date.parse(String(channel.settings.tokenExpiresAt ?? ''));
  if (!Number.isFinite(expires) || expires - now.getTime() > RENEW_BEFORE_MS) return null;
  const long = await longLived(ctx, channel.secrets.userAccessToken ?? '');
  if (!long.ok || !long.result.access_token) throw new TokenRefusedError(long.ok ? 'no token' : long.message);
  const list = await pages(ctx, long.result.access_token);
  const page = list.ok ? list.result.data?.find((a) => a.id === channel.settings.pageId) : undefined;
  if (!page?.access_token)
    throw new TokenRefusedError(list.ok ? 'the page is no longer managed' : list.message);
  return {
    settings: {
      ...channel.settings,
      tokenExpiresAt: long.result.expires_in
        ? new Date(now.getTime() + long.result.expires_in * 1000).toISOString()
        : null,
    },
    secrets: {
      ...channel.secrets,
      userAccessToken: long.result.access_token,
      pageAccessToken: page.access_token,
    },
  };
}

function oauth(kind: MessengerKind): NonNullable<ChannelAdapter['oauth']> {
  return {
    authorizeUrl: (ctx, p) => {
      const q = new URLSearchParams({
        client_id: env(ctx, 'META_APP_ID'),
        redirect_uri: p.redirectUri,
        state: p.state,
        response_type: 'code',
        scope: kind.scope,
      });
      return `${oauthBase(ctx)}/${GRAPH_VERSION}/dialog/oauth?${q}`;
    },
    /** The code for a short-lived token, that for a long-lived one (60 days). */
    exchange: async (ctx, p) => {
      const code = p.query.code;
      if (p.query.error || typeof code !== 'string' || !code)
        throw new OAuthRefusedError(String(p.query.error));
      const short = await call<{ access_token?: string }>(
        ctx,
        '',
        'GET',
        `/oauth/access_token?${new URLSearchParams({ client_id: env(ctx, 'META_APP_ID'), client_secret: env(ctx, 'META_APP_SECRET'), redirect_uri: p.redirectUri, code })}`,
      );
      if (!short.ok || !short.result.access_token)
        throw new OAuthRefusedError(short.ok ? 'no token' : short.message);
      const long = await longLived(ctx, short.result.access_token);
      if (!long.ok || !long.result.access_token)
        throw new OAuthRefusedError(long.ok ? 'no token' : long.message);
      return { token: long.result.access_token, expiresInSeconds: long.result.expires_in ?? null };
    },
    accounts: async (ctx, token) => {
      const res = await pages(ctx, token);
      if (!res.ok) throw new OAuthRefusedError(res.message);
      const out: OauthAccount[] = [];
      for (const a of res.result.data ?? []) {
        if (kind.type === 'instagram' && !a.instagram_business_account) continue;
        out.push({
          id: a.id,
          name: a.name ?? a.id,
          // The linked Instagram account's handle is the Instagram channel's; a Messenger page has none.
          username: kind.type === 'instagram' ? (a.instagram_business_account?.username ?? null) : null,
        });
      }
      return out;
    },
  };
}

/**
 * Connects the chosen page with the login's user token: its page token (from /me/accounts, which never expires
 * when got with a long-lived user token), its Instagram business account for Instagram, and the page's webhook
 * subscription (POST /{page-id}/subscribed_apps). An expired login is the grant field's error.
 */
async function connect(
  kind: MessengerKind,
  ctx: AdapterContext,
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const grant = input.grant as string | undefined;
  const pageId = (input.pageId as string | undefined) ?? (current?.settings.pageId as string | undefined);
  if (!grant) {
    // An edit of the common fields (or reactivation) keeps the login it has.
    if (current) return { settings: current.settings, secrets: current.secrets };
    throw new AppError('validationException', { grant: M.tokenIncorrect });
  }
  if (!pageId) throw new AppError('validationException', { pageId: M.valueIncorrect });
  const list = await pages(ctx, grant).catch(() => {
    throw new AppError('channelCreationException', undefined, { reason: 'unreachable' });
  });
  if (!list.ok) throw new AppError('validationException', { grant: M.tokenIncorrect });
  const page = list.result.data?.find((a) => a.id === pageId);
  const account = kind.type === 'instagram' ? page?.instagram_business_account : page;
  if (!page?.access_token || !account)
    throw new AppError('validationException', { pageId: M.valueIncorrect });
  const sub = await call<{ success?: boolean }>(
    ctx,
    page.access_token,
    'POST',
    `/${pageId}/subscribed_apps?subscribed_fields=${SUBSCRIBED_FIELDS[kind.type]}`,
  ).catch(() => {
    throw new AppError('channelCreationException', undefined, { reason: 'unreachable' });
  });
  if (!sub.ok)
    throw new AppError('channelCreationException', undefined, { reason: 'webhook', provider: sub.message });
  return {
    settings: {
      pageId,
      pageName: page.name ?? null,
      accountId: account.id,
      username: kind.type === 'instagram' ? (page.instagram_business_account?.username ?? null) : null,
      tokenExpiresAt: typeof input.grantExpiresAt === 'string' ? input.grantExpiresAt : null,
    },
    // Meta signs webhooks with the app's secret; the verify token is the one entered in the app's webhook settings.
    secrets: {
      pageAccessToken: page.access_token,
      userAccessToken: grant,
      appSecret: env(ctx, 'META_APP_SECRET'),
      verifyToken: env(ctx, 'META_VERIFY_TOKEN'),
    },
  };
}

/** An attachment's URL is a CDN link that works without a token for a while. */
async function fetchMedia(
  ctx: AdapterContext,
  _channel: AdapterChannel,
  ref: MediaRef,
): Promise<MediaDownload> {
  const res = await downloadMedia(ctx, ref.ref);
  const contentType =
    mediaType(res.headers.get('content-type')) ?? ref.contentType ?? 'application/octet-stream';
  return {
    stream: res.body,
    size: res.size ?? ref.size,
    contentType,
    // The file's own name where the CDN tells it (header or URL); else the kind's, with the type's extension.
    name:
      downloadedName(res.headers, ref.ref) ??
      nameForType((ref.name ?? 'file').replace(/\.[^.]*$/, ''), contentType) ??
      ref.name,
  };
}

function failure(a: Extract<GraphAnswer<unknown>, { ok: false }>): SendResult {
  const error = `${a.code}: ${a.message}`;
  if (a.code === 10 && a.subcode !== undefined && WINDOW_SUBCODES.has(a.subcode))
    return { ok: false, retryable: false, error: `24-hour session ended (${error})` };
  if (isRateLimit(a)) return { ok: false, retryable: true, error, retryAfterMs: RATE_LIMIT_WAIT_MS };
  return { ok: false, retryable: retryable(a), error };
}

/**
 * Our message through the Send API (POST /{page-id}/messages, `messaging_type: RESPONSE`, within the 24-hour
 * window the chat enforces): each image uploaded from our storage (multipart `filedata`) or by its link, then the
 * text, split past the provider's limit. The first part's message_id is kept.
 */
async function send(
  kind: MessengerKind,
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: `${kind.label} does not edit sent messages` };
  const token = channel.secrets.pageAccessToken ?? '';
  const path = `/${channel.settings.pageId}/messages`;
  const recipient = { id: m.client.externalId };
  let first: string | undefined;
  try {
    for (const a of m.attachments) {
      const stored = await ctx.readFile(channel.organisationId, a.url);
      const type = (a.contentType ?? stored?.contentType ?? '').split(';')[0]?.trim() ?? '';
      const attType = type.startsWith('image/') ? 'image' : type.startsWith('video/') ? 'video' : 'file';
      let res: GraphAnswer<{ message_id?: string }>;
      if (stored) {
        const form = new FormData();
        form.set('recipient', JSON.stringify(recipient));
        form.set('messaging_type', 'RESPONSE');
        form.set(
          'message',
          JSON.stringify({ attachment: { type: attType, payload: { is_reusable: false } } }),
        );
        form.set('filedata', new Blob([new Uint8Array(stored.data)], { type }), a.name ?? 'file');
        res = await call(ctx, token, 'POST', path, form);
      } else
        res = await call(ctx, token, 'POST', path, {
          recipient,
          messaging_type: 'RESPONSE',
          message: { attachment: { type: attType, payload: { url: a.url, is_reusable: false } } },
        });
      if (!res.ok) return failure(res);
      first ??= res.result.message_id;
    }
    for (const part of m.text.trim() ? splitText(m.text, TEXT_LIMIT[kind.type]) : []) {
      const res = await call<{ message_id?: string }>(ctx, token, 'POST', path, {
        recipient,
        messaging_type: 'RESPONSE',
        message: { text: part },
      });
      if (!res.ok) return failure(res);
      first ??= res.result.message_id;
    }
    return { ok: true, externalId: first };
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
}

/**
 * The clients' names from the user profile of the page's scoped id (Messenger: first_name, last_name; Instagram:
 * name, else username), one call each; ids the Graph will not describe are left out.
 */
async function clientNames(
  kind: MessengerKind,
  ctx: AdapterContext,
  channel: AdapterChannel,
  ids: string[],
): Promise<Record<string, string>> {
  const token = channel.secrets.pageAccessToken ?? '';
  const fields = kind.type === 'instagram' ? 'name,username' : 'first_name,last_name';
  const out: Record<string, string> = {};
  for (const id of ids) {
    const res = await graphCall<{
      name?: string;
      username?: string;
      first_name?: string;
      last_name?: string;
    }>(ctx, base(ctx), token, 'GET', `/${encodeURIComponent(id)}?fields=${fields}`);
    if (!res.ok) {
      if (retryable(res)) throw new Error(`user profile: ${res.code} ${res.message}`);
      continue;
    }
    const p = res.result;
    const name = (p.name ?? `${p.first_name ?? ''} ${p.last_name ?? ''}`).trim() || p.username?.trim();
    if (name) out[id] = name;
  }
  return out;
}

/** The adapter of one Messenger Platform product. */
export function messengerAdapter(kind: MessengerKind): ChannelAdapter {
  return {
    type: kind.type,
    createSchema: CHANNEL_TYPE_FIELDS[kind.type],
    updateSchema: CHANNEL_TYPE_FIELDS[kind.type].partial(),
    capabilities: {
      startDialog: false,
      edit: false,
      buttons: false,
      templates: false,
      // Meta's standard messaging: free replies within 24 hours of the client's last message.
      sessionWindowHours: 24,
      textLimit: TEXT_LIMIT[kind.type],
      attachments: { kinds: ['image'], maxBytes: MESSENGER_MEDIA_MAX },
    },
    connect: (ctx, _channel, input, current) => connect(kind, ctx, input, current),
    oauth: oauth(kind),
    refresh,
    // The page's webhook subscription belongs to our app and the page (an Instagram and a Facebook channel of the
    // same page share it): nothing to undo at Meta; calls for a deleted channel are answered 404.
    disconnect: async () => {},
    verify: (channel, req) => hubSignatureValid(channel.secrets.appSecret, req),
    challenge: (channel, req) => hubChallenge(channel.secrets.verifyToken, req),
    parse: (channel, req) => parse(kind, channel, req),
    send: (ctx, channel, m) => send(kind, ctx, channel, m),
    fetchMedia,
    // Meta's documented largest attachment a webhook names (25 MB); we send images of at most 8 MB.
    mediaMaxBytes: MESSENGER_INBOUND_MAX,
    clientNames: (ctx, channel, ids) => clientNames(kind, ctx, channel, ids),
    present: (settings) => ({
      pageId: settings.pageId ?? null,
      pageName: settings.pageName ?? null,
      accountId: settings.accountId ?? null,
      username: settings.username ?? null,
    }),
  };
}
