import {
  apiKeyCreatedDto,
  apiKeyCreateSchema,
  apiKeyDto,
  apiKeyRotateSchema,
  idParams,
  page,
} from '@smartconnect/contracts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from './service.ts';

const tags = ['integrations'];
/** §6 AUTHORITY_INTEGRATION manages the keys; using them needs OPTION_API (checked when a key is used). */
const manage = { right: 'AUTHORITY_INTEGRATION' } as const;

export const apiKeyRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/integrations/api-keys',
      access: manage,
      response: page(apiKeyDto),
      summary: "The organisation's API keys, newest first (the keys themselves are never shown again)",
      tags,
    },
    async ({ auth }) => {
      const items = await listApiKeys(app, auth);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/integrations/api-keys',
      access: manage,
      body: apiKeyCreateSchema,
      response: apiKeyCreatedDto,
      summary: 'Create an API key with a name and scopes; the answer holds the key, shown this once',
      tags,
    },
    async ({ auth, body }) => createApiKey(app, auth, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/integrations/api-keys/:id/rotate',
      access: manage,
      params: idParams,
      body: apiKeyRotateSchema,
      response: apiKeyCreatedDto,
      summary:
        'A new key with the same name and scopes; the old one keeps working for overlapHours (default 24, 0: stops now)',
      tags,
    },
    async ({ auth, params, body }) => rotateApiKey(app, auth, params.id, body.overlapHours),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/integrations/api-keys/:id',
      access: manage,
      params: idParams,
      response: apiKeyDto,
      summary: 'Revoke an API key: it stops working at once, everywhere',
      tags,
    },
    async ({ auth, params }) => revokeApiKey(app, auth, params.id),
  );
};
