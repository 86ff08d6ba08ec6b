import { idParams, organisationDto, organisationUpdateSchema, page } from '@smartconnect/contracts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import * as S from './service.ts';

const tags = ['organisations'];

export const organisationRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/organisation',
      access: 'user',
      summary: "The caller's organisation: plan options, operator licences and how many operators are online",
      tags,
      response: organisationDto,
    },
    async ({ auth }) => S.ownOrganisation(app, auth.organisationId),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/organisations',
      access: { right: 'RIGHT_OBSERVER' },
      summary: 'Customer organisations (platform staff)',
      tags,
      response: page(organisationDto),
    },
    async () => {
      const items = await S.listOrganisations(app);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/organisations/:id',
      access: { right: 'RIGHT_OBSERVER' },
      summary:
        "Change a customer organisation's plan options, operator licences, status, name or language (platform staff)",
      tags,
      params: idParams,
      body: organisationUpdateSchema,
      response: organisationDto,
    },
    async ({ params, body }) => S.updateOrganisation(app, params.id, body),
  );
};
