import {
  idEntity,
  idParams,
  page,
  routingRuleCreateSchema,
  routingRuleDto,
  routingRuleOrderSchema,
  routingRuleUpdateSchema,
} from '@smartconnect/contracts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { createRule, deleteRule, listRules, reorderRules, updateRule } from './service.ts';

const tags = ['routing rules'];
/** Rules belong to the channels' settings (§2.6 channel tab 'routing'): the channels right and the plan's routing. */
const manage = { right: 'AUTHORITY_SERVICE_ACCOUNT', option: 'OPTION_ROUTING' } as const;

export const routingRuleRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/routing-rules',
      access: manage,
      response: page(routingRuleDto),
      summary: 'List routing rules in the order they are tried (the default rule last)',
      tags,
    },
    async ({ auth }) => {
      const items = await listRules(app, auth);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/routing-rules',
      access: manage,
      response: routingRuleDto,
      summary: 'Create a routing rule',
      tags,
      body: routingRuleCreateSchema,
    },
    async ({ auth, body }) => createRule(app, auth, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PUT',
      url: '/api/routing-rules/order',
      access: manage,
      response: page(routingRuleDto),
      summary: 'Reorder the routing rules (every rule but the default one, first tried first)',
      tags,
      body: routingRuleOrderSchema,
    },
    async ({ auth, body }) => {
      const items = await reorderRules(app, auth, body);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/routing-rules/:id',
      access: manage,
      response: routingRuleDto,
      summary: 'Update a routing rule (not the default rule)',
      tags,
      params: idParams,
      body: routingRuleUpdateSchema,
    },
    async ({ auth, params, body }) => updateRule(app, auth, params.id, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/routing-rules/:id',
      access: manage,
      response: idEntity,
      summary: 'Delete a routing rule (not the default rule)',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await deleteRule(app, auth, params.id);
      return { id: params.id };
    },
  );
};
