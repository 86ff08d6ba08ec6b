import {
  channelCreatedDto,
  channelCreateSchema,
  channelDto,
  channelUpdateSchema,
  deliveryStatusSchema,
  idEntity,
  idParams,
  ingestResultDto,
  messageDto,
  page,
} from '@smartconnect/contracts';
import type { ModuleRoutes } from '../../http/route.ts';
import { definePublicRoute, defineRoute } from '../../http/route.ts';
import { recordChannelDelivery } from '../chats/delivery-status.ts';
import { ingestInbound } from '../chats/ingest.ts';
import { presentChannel } from './presenter.ts';
import { listChannels } from './queries.ts';
import { createChannel, deleteChannel, getChannel, inboundChannel, updateChannel } from './service.ts';

const tags = ['channels'];

const manage = { right: 'AUTHORITY_SERVICE_ACCOUNT' } as const;

export const channelRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/channels',
      access: manage,
      response: page(channelDto),
      summary: 'Channels of the organisation',
      tags,
    },
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
      response: channelDto,
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
      response: channelCreatedDto,
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
      response: channelDto,
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
      response: idEntity,
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
      response: ingestResultDto,
      summary:
        'Push a customer message into an API channel (Authorization: Bearer <inboundKey>); answered 200 after commit, retries are harmless',
      tags,
      params: idParams,
    },
    async ({ params, req }) => {
      const { row, adapter } = await inboundChannel(app, params.id, { headers: req.headers, body: req.body });
      return ingestInbound(app, row, adapter.normalize(req.body));
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/channels/:id/status',
      access: 'custom',
      response: messageDto,
      summary:
        'Report that one of our messages (messageId from the webhook payload) was delivered or read (Authorization: Bearer <inboundKey>); the status only moves forward',
      tags,
      params: idParams,
      body: deliveryStatusSchema,
    },
    async ({ params, req, body }) => {
      const { row } = await inboundChannel(app, params.id, { headers: req.headers, body: req.body });
      return recordChannelDelivery(app, row, body);
    },
  );
};
