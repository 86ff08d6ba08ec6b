import {
  MONITORING_VIEWS,
  type MonitoringView,
  monitoringSettingsDto,
  monitoringSettingsSchema,
  monitoringSnapshotDto,
} from '@smartconnect/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { readSettings, saveSettings, snapshot } from './service.ts';

const tags = ['monitoring'];
const access = { right: 'AUTHORITY_ALL_STAT', option: 'OPTION_ONLINE_MONITORING' } as const;

/**
 * §2.6 Monitoring: the live tables' rows now, and each user's column settings; live changes go over the realtime
 * socket's `monitoring` topic (live.ts). One route per view, not a `:view` parameter: a view names no object.
 */
export const monitoringRoutes: ModuleRoutes = (fastify, app) => {
  for (const view of MONITORING_VIEWS) viewRoutes(fastify, app, view);
};

function viewRoutes(fastify: FastifyInstance, app: AppContext, view: MonitoringView): void {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: `/api/monitoring/${view}`,
      access,
      response: monitoringSnapshotDto,
      summary: `The ${view} monitoring table now (channels, teams: chats waiting and in progress and when the longest current wait began; operators: In work / Break / offline and load against their dialog limit; abonents: clients waiting and since when). Holders of AUTHORITY_ALL_CHATS see the organisation, others what concerns their teams. Live changes: the realtime socket's 'monitoring' topic. 403 optionUnavailableException without OPTION_ONLINE_MONITORING`,
      tags,
    },
    async ({ auth }) => snapshot(app, auth, view),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: `/api/monitoring/settings/${view}`,
      access,
      response: monitoringSettingsDto,
      summary: `The signed-in user's columns of the ${view} monitoring table, in order, each shown or hidden; every column shown by default`,
      tags,
    },
    async ({ auth }) => readSettings(app, auth.userId, view),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PUT',
      url: `/api/monitoring/settings/${view}`,
      access,
      response: monitoringSettingsDto,
      summary: `Saves the signed-in user's columns of the ${view} monitoring table: keys of its columns, each at most once, at least one shown; columns left out follow, shown`,
      tags,
      body: monitoringSettingsSchema,
    },
    async ({ auth, body }) => saveSettings(app, auth, view, body.columns),
  );
}
