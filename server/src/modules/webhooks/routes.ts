import {
  idEntity,
  idParams,
  page,
  webhookDeliveriesQuerySchema,
  webhookDeliveryDto,
  webhookDeliveryParams,
  webhookEndpointCreateSchema,
  webhookEndpointDto,
  webhookEndpointSecretDto,
  webhookEndpointUpdateSchema,
} from '@smartconnect/contracts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import * as S from './service.ts';

const tags = ['webhooks'];
/** §6: integrations are the administrator's ("extensions"), and the plan must include the API. */
const access = { right: 'AUTHORITY_INTEGRATION', option: 'OPTION_API' } as const;
const base = '/api/integrations/webhooks';

/** Issue 34: event webhooks, the organisation's URLs subscribed to public events (README.md "Event webhooks"). */
export const webhookRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: base,
      access,
      response: page(webhookEndpointDto),
      summary: "The organisation's webhook endpoints, oldest first (never their secrets)",
      tags,
    },
    async ({ auth }) => {
      const items = await S.listEndpoints(app, auth);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: base,
      access,
      response: webhookEndpointSecretDto,
      summary:
        'Subscribe a URL to event types; the answer holds its signing secret (`secret`), shown this once. A local or private address is refused (field url)',
      tags,
      body: webhookEndpointCreateSchema,
    },
    async ({ auth, body }) => S.createEndpoint(app, auth, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: `${base}/:id`,
      access,
      response: webhookEndpointDto,
      summary: 'One webhook endpoint',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => S.getEndpoint(app, auth, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: `${base}/:id`,
      access,
      response: webhookEndpointDto,
      summary:
        'Change an endpoint: its URL, description, event types, or `enabled` (turning it on again clears its failure record)',
      tags,
      params: idParams,
      body: webhookEndpointUpdateSchema,
    },
    async ({ auth, params, body }) => S.updateEndpoint(app, auth, params.id, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: `${base}/:id`,
      access,
      response: idEntity,
      summary: 'Remove an endpoint and its delivery log',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => S.deleteEndpoint(app, auth, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: `${base}/:id/rotate-secret`,
      access,
      response: webhookEndpointSecretDto,
      summary: 'A new signing secret for the endpoint, shown this once; the old one stops signing at once',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => S.rotateSecret(app, auth, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: `${base}/:id/test`,
      access,
      response: webhookDeliveryDto,
      summary:
        'Send a `ping` event to the endpoint now (at most 10 s) and answer its logged delivery: status, answer code, duration, error',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => S.sendTestEvent(app, auth, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: `${base}/:id/deliveries`,
      access,
      response: page(webhookDeliveryDto),
      summary:
        "The endpoint's delivery log, newest first (limit, offset): status, attempts, last answer code, duration and error, next attempt",
      tags,
      params: idParams,
      query: webhookDeliveriesQuerySchema,
    },
    async ({ auth, params, query }) => S.listDeliveries(app, auth, params.id, query),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: `${base}/:id/deliveries/:deliveryId/redeliver`,
      access,
      response: webhookDeliveryDto,
      summary:
        'Send one delivery again now, with the same body and event id (at most 10 s), and answer it as logged',
      tags,
      params: webhookDeliveryParams,
    },
    async ({ auth, params }) => S.redeliver(app, auth, params.id, params.deliveryId),
  );
};
