import {
  CHANNEL_TYPES,
  FIELD_MESSAGES as M,
  oauthAccountDto,
  oauthAccountsBody,
  oauthStartDto,
  page,
} from '@smartconnect/contracts';
import { z } from 'zod';
import { adapterFor } from '../../channels/registry.ts';
import { type ChannelAdapter, OAuthRefusedError, TokenRefusedError } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { definePublicRoute, defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { encryptSecret } from '../../lib/crypto.ts';
import { open, seal } from './grant.ts';
import { recordChannelProblem, resolveChannelProblems } from './problems.ts';
import * as Q from './queries.ts';
import { adapterChannel, adapterContext } from './service.ts';

/**
 * Connecting a channel by logging in with its provider (types whose adapter has `oauth`): the start route names the
 * provider's dialog with a `state` sealed for the admin's organisation and user (10 minutes); the provider sends
 * the admin back to the callback, which makes the code a user token and hands it to the channels page as a sealed
 * `grant` (1 hour, this organisation only), or `error=accessDenied` when the login was refused. The page lists the
 * accounts of the grant and creates the channel with `{grant, pageId}`.
 */
const STATE_TTL_MS = 10 * 60_000;
const GRANT_TTL_MS = 60 * 60_000;
const CHANNELS_PAGE = '/admin/preferences/channels';

const typeParams = z.object({ type: z.enum(CHANNEL_TYPES, 'Not found') });
const typeQuery = z.object({ type: z.enum(CHANNEL_TYPES, M.valueIncorrect) });
/** `accountId`: a second authorisation for that account's own token (VK: the chosen community's token). */
const startQuery = typeQuery.extend({
  accountId: z
    .string(M.valueIncorrect)
    .regex(/^\d{1,30}$/, M.valueIncorrect)
    .optional(),
});

function oauthOf(type: string): NonNullable<ChannelAdapter['oauth']> {
  const oauth = adapterFor(type).oauth;
  if (!oauth) throw new AppError('notFoundException');
  return oauth;
}

const redirectUri = (app: AppContext, type: string) =>
  `${app.config.publicUrl.replace(/\/$/, '')}/api/channels/oauth/${type}/callback`;

export const oauthRoutes: ModuleRoutes = (fastify, app) => {
  const tags = ['channels'];
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/channels/oauth/start',
      access: { right: 'AUTHORITY_SERVICE_ACCOUNT' },
      response: oauthStartDto,
      summary:
        "The provider's login dialog to send the admin to, for types connected by logging in (Instagram, Facebook, VK; accountId: VK's second authorisation for the chosen community's token)",
      tags,
      query: startQuery,
    },
    async ({ auth, query: params }) => {
      const oauth = oauthOf(params.type);
      const accountId = params.accountId;
      if (accountId && !oauth.accountAuthorization)
        throw new AppError('validationException', { accountId: M.valueIncorrect });
      const state = seal(app, {
        k: 'state',
        t: params.type,
        o: auth.organisationId,
        u: auth.userId,
        e: app.clock.now().getTime() + STATE_TTL_MS,
        ...(accountId ? { g: accountId } : {}),
      });
      return {
        url: oauth.authorizeUrl(adapterContext(app), {
          redirectUri: redirectUri(app, params.type),
          state,
          ...(accountId ? { accountId } : {}),
        }),
      };
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/channels/oauth/:type/callback',
      access: 'custom',
      raw: true,
      // Answered with a 302 (no body) to the channels page.
      rawText: true,
      summary:
        "Where the provider's login returns (code and state, or error): redirects to the channels page with a grant to choose an account, or with error=accessDenied",
      tags,
      params: typeParams,
    },
    async ({ params, req, reply }) => {
      const oauth = oauthOf(params.type);
      const query = (req.query ?? {}) as Record<string, unknown>;
      const state = typeof query.state === 'string' ? open(app, query.state, 'state', params.type) : null;
      if (!state) throw new AppError('accessDeniedException');
      const back = (q: Record<string, string>) =>
        reply.redirect(`${CHANNELS_PAGE}?${new URLSearchParams({ connect: params.type, ...q })}`, 302);
      try {
        const got = await oauth.exchange(adapterContext(app), {
          query,
          redirectUri: redirectUri(app, params.type),
          ...(state.g ? { accountId: state.g } : {}),
        });
        const grant = seal(app, {
          k: 'grant',
          t: params.type,
          o: state.o,
          v: got.token,
          ...(got.expiresInSeconds ? { x: app.clock.now().getTime() + got.expiresInSeconds * 1000 } : {}),
          e: app.clock.now().getTime() + GRANT_TTL_MS,
          ...(state.g ? { g: state.g } : {}),
        });
        return back({ grant, ...(state.g ? { account: state.g } : {}) });
      } catch (err) {
        if (!(err instanceof OAuthRefusedError)) app.log.warn({ err }, 'provider login failed');
        return back({ error: 'accessDenied' });
      }
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/channels/oauth/accounts',
      access: { right: 'AUTHORITY_SERVICE_ACCOUNT' },
      response: page(oauthAccountDto),
      summary:
        "The accounts (pages) a provider login may connect ({type, grant}: the grant in the body, never in a URL); for a second authorisation's grant (VK's community token), that one account with its name",
      tags,
      body: oauthAccountsBody,
    },
    async ({ auth, body: query }) => {
      const oauth = oauthOf(query.type);
      // A grant of another organisation (or type, or expired) names nothing here.
      const opened = open(app, query.grant, 'grant', query.type);
      if (!opened || opened.o !== auth.organisationId || !opened.v) throw new AppError('notFoundException');
      const grant = opened.v;
      // A second authorisation's grant (VK: a community's token) names its one account.
      const items = await oauth.accounts(adapterContext(app), grant, opened.g).catch((err) => {
        if (err instanceof OAuthRefusedError)
          throw new AppError('validationException', { grant: M.tokenIncorrect });
        throw new AppError('channelCreationException', undefined, { reason: 'unreachable' });
      });
      return { items, total: items.length };
    },
  );
};

/**
 * Renews provider tokens about to expire (types whose adapter has `refresh`) on every active channel; a refusal is
 * a channel problem ('token refused', ended by the next renewal that works) and asked again next time (the job
 * runner asks hourly, channels/register.ts).
 */
export async function refreshProviderTokens(app: AppContext): Promise<void> {
  const now = app.clock.now();
  const types = CHANNEL_TYPES.filter((t) => adapterFor(t).refresh);
  for (const row of await Q.activeChannelsOfTypes(app.db, types)) {
    const adapter = adapterFor(row.type);
    try {
      const renewed = await adapter.refresh?.(adapterContext(app), adapterChannel(app, row), now);
      if (!renewed) continue;
      await Q.setChannelConfig(
        app.db,
        row.id,
        renewed.settings,
        encryptSecret(app.config.secretKey, JSON.stringify(renewed.secrets)),
      );
      await resolveChannelProblems(app, row, ['token_refused']);
    } catch (err) {
      app.log.warn({ err, channelId: row.id }, 'provider token not renewed');
      // Refused: the channel will stop when its token expires, so administrators are told now (out of reach: the
      // next hourly run tries again, days before the token expires).
      if (err instanceof TokenRefusedError)
        await recordChannelProblem(app, row, 'token_refused', `Token renewal refused: ${err.message}`);
    }
  }
}
