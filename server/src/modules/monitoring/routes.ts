import {
  monitoringSettingsDto,
  monitoringSettingsSchema,
  monitoringSnapshotDto,
  monitoringViewParams,
} from '@smartconnect/contracts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { readSettings, saveSettings, snapshot } from './service.ts';

const tags = ['monitoring'];
const access = { right: 'AUTHORITY_ALL_STAT', option: 'OPTION_ONLINE_MONITORING' } as const;

/** §2.6 Monitoring: the live tables' rows now, and each user's column settings (live values: realtime topic). */
export const monitoringRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/monitoring/settings/:view',
      access,
      response: monitoringSettingsDto,
      summary:
        "The signed-in user's columns of a monitoring table (channels, teams, operators, abonents), in order, each shown or hidden; every column shown by default",
      tags,
      params: monitoringViewParams,
    },
    async ({ auth, params }) => readSettings(app, auth.userId, params.view),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PUT',
      url: '/api/monitoring/settings/:view',
      access,
      response: monitoringSettingsDto,
      summary:
        "Saves the signed-in user's columns of a monitoring table: keys of the view's columns, each at most once, at least one shown; columns left out follow, shown",
      tags,
      params: monitoringViewParams,
      body: monitoringSettingsSchema,
    },
    async ({ auth, params, body }) => saveSettings(app, auth, params.view, body.columns),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/monitoring/:view',
      access,
      response: monitoringSnapshotDto,
      summary:
        "A monitoring table now (channels, teams: chats waiting and in progress, longest wait; operators: In work / Break / offline and load against their dialog limit; abonents: clients waiting and since when). Holders of AUTHORITY_ALL_CHATS see the organisation, others their teams. Live changes come over the realtime socket's 'monitoring' topic. 403 optionUnavailableException without OPTION_ONLINE_MONITORING",
      tags,
      params: monitoringViewParams,
    },
    async ({ auth, params }) => snapshot(app, auth, params.view),
  );
};
