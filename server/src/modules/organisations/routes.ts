import {
  firstRunDto,
  idParams,
  organisationCreateSchema,
  organisationDto,
  organisationSettingsSchema,
  organisationUpdateSchema,
  page,
} from '@smartconnect/contracts';
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
      url: '/api/organisation/first-run',
      access: { right: 'RIGHT_ACCOUNT_CONTROL' },
      summary:
        "The first-run checklist of the caller's organisation (its administrator): whether it has chats, a channel, a colleague and a website chat tried",
      tags,
      response: firstRunDto,
    },
    async ({ auth }) => S.firstRun(app, auth.organisationId),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/organisation',
      access: { right: 'RIGHT_ACCOUNT_CONTROL' },
      summary:
        "Change the caller's organisation settings (its administrator): the time zone reports count days in",
      tags,
      body: organisationSettingsSchema,
      response: organisationDto,
    },
    async ({ auth, body }) => S.updateOwnSettings(app, auth.organisationId, body),
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
        'Change a customer organisation (platform staff): login, name, administrator e-mail, status, language, instance, tariff (balance-checked), first tariff day, paid-until day, balance, billing mode, plan options, operator licences',
      tags,
      params: idParams,
      body: organisationUpdateSchema,
      response: organisationDto,
    },
    async ({ params, body }) => S.updateOrganisation(app, params.id, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/organisations',
      access: { right: 'RIGHT_OBSERVER' },
      summary:
        'Create a customer organisation on a tariff with a 7-day trial and its Administrator, who is mailed a link to set the password (platform staff)',
      tags,
      body: organisationCreateSchema,
      response: organisationDto,
    },
    async ({ body }) => S.createOrganisation(app, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/organisations/:id/extend',
      access: { right: 'RIGHT_OBSERVER' },
      summary: "Extend a customer organisation's tariff by 14 days (platform staff)",
      tags,
      params: idParams,
      response: organisationDto,
    },
    async ({ params }) => S.extendOrganisation(app, params.id),
  );
};
