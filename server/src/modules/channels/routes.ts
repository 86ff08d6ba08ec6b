import { channelCreateSchema, channelUpdateSchema, idParams } from '@smartconnect/contracts';
import type { InboundRequest } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import type { ModuleRoutes } from '../../http/route.ts';
import { definePublicRoute, defineRoute } from '../../http/route.ts';
import { ingestInbound } from '../chats/ingest.ts';
import { presentChannel } from './presenter.ts';
import { listChannels } from './queries.ts';
import { createChannel, deleteChannel, getChannel, inboundChannel, updateChannel } from './service.ts';

const tags = ['channels'];

/** Per server and channel: the inbound authentication now waiting on the database (a channel cache refresh). */
const lookups = new WeakMap<AppContext, Map<string, Promise<void>>>();

/**
 * inboundChannel, but when the channel's cached row is being re-read, requests arriving meanwhile wait for
 * that read and then authenticate from the refreshed cache, instead of each reading it again (every few
 * seconds under load, a burst of identical lookups queued for the pool ahead of the ingest statements).
 * Each request still runs inboundChannel itself: its own key check, the channel module's cache rules.
 */
async function inboundOnce(app: AppContext, id: string, req: InboundRequest) {
  let pending = lookups.get(app);
  if (!pending) {
    pending = new Map();
    lookups.set(app, pending);
  }
  const earlier = pending.get(id);
  if (earlier) await earlier;
  const lookup = inboundChannel(app, id, req);
  const settled = lookup.then(
    () => undefined,
    () => undefined,
  );
  pending.set(id, settled);
  void settled.then(() => {
    if (pending.get(id) === settled) pending.delete(id);
  });
  return lookup;
}
const manage = { right: 'AUTHORITY_SERVICE_ACCOUNT' } as const;

export const channelRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    { method: 'GET', url: '/api/channels', access: manage, summary: 'Channels of the organisation', tags },
    async ({ auth }) => {
      const items = (await listChannels(app.db, auth.organisationId)).map(presentChannel);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/channels/:id',
      access: manage,
      summary: 'One channel',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => presentChannel(await getChannel(app, auth.organisationId, params.id)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/channels',
      access: manage,
      summary:
        'Create a channel; the answer carries its inbound key and webhook secret, shown only this once',
      tags,
      body: channelCreateSchema,
    },
    async ({ auth, body }) => createChannel(app, auth, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/channels/:id',
      access: manage,
      summary: 'Update a channel (name, team, webhook URL, status active|inactive, overdue thresholds)',
      tags,
      params: idParams,
      body: channelUpdateSchema,
    },
    async ({ auth, params, body }) => presentChannel(await updateChannel(app, auth, params.id, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/channels/:id',
      access: manage,
      summary: 'Delete a channel',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await deleteChannel(app, auth, params.id);
      return { id: params.id };
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/channels/:id/inbound',
      access: 'custom',
      summary:
        'Push a customer message into an API channel (Authorization: Bearer <inboundKey>); answered 200 after commit, retries are harmless',
      tags,
      params: idParams,
    },
    async ({ params, req }) => {
      const { row, adapter } = await inboundOnce(app, params.id, { headers: req.headers, body: req.body });
      return ingestInbound(app, row, adapter.normalize(req.body));
    },
  );
};
