import {
  categoriesReportDto,
  dialogsReportDto,
  groupedReportDto,
  reportQuerySchema,
  summaryExportQuerySchema,
  summaryReportDto,
  timeReportDto,
} from '@smartconnect/contracts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { summaryCsv, summaryXlsx } from './export.ts';
import { categoriesReport, groupedReport, summaryReport, timeReport } from './kinds.ts';
import { dialogsReport } from './service.ts';

const STAT = { right: 'AUTHORITY_ALL_STAT', option: 'OPTION_STATISTIC' } as const;
const REFUSALS =
  "403 accessDeniedException without AUTHORITY_ALL_STAT, statisticsUnavailableException ('Statistics only in the extended tariff') without OPTION_STATISTIC; 400 when neither a period nor a start and end date is given. Periods are local dates in `timeZone`, else the organisation's zone";

const tags = ['reports'];

/** Reports from the hourly rollups (rollup.ts): the organisation's, and an operator's own (the unguarded /report). */
export const reportRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/reports/dialogs',
      scope: 'reports:read',
      access: STAT,
      response: dialogsReportDto,
      summary: `Dialogs report: new, closed, transferred, first response and handling time (avg, median, p90), ratings 1-5, messages in/out; totals and a series by day or hour. ${REFUSALS}`,
      tags,
      query: reportQuerySchema,
    },
    async ({ auth, query }) => dialogsReport(app, auth.organisationId, query),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/reports/own/dialogs',
      access: 'user',
      response: dialogsReportDto,
      summary:
        "The signed-in user's own dialogs report (the /report screen, no right needed): the same figures filtered to chats they handled",
      tags,
      query: reportQuerySchema,
    },
    async ({ auth, query }) => dialogsReport(app, auth.organisationId, query, { operatorId: auth.userId }),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/reports/summary',
      scope: 'reports:read',
      access: STAT,
      response: summaryReportDto,
      summary: `Summary report: a row per channel (dialogs, accepted and missed messages) and per operator (online and break time, dialogs closed, accepted and missed messages). ${REFUSALS}`,
      tags,
      query: reportQuerySchema,
    },
    async ({ auth, query }) => summaryReport(app, auth.organisationId, query),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/reports/summary/export',
      scope: 'reports:read',
      access: STAT,
      raw: true,
      rawFile: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      summary: `The summary report's rows as a file: format=csv (default, UTF-8 with BOM) or xlsx; the same columns as the web table. ${REFUSALS}`,
      tags,
      query: summaryExportQuerySchema,
    },
    async ({ auth, query, reply }) => {
      const report = await summaryReport(app, auth.organisationId, query);
      const name = `summary-${report.period.from}_${report.period.to}`;
      const file =
        query.format === 'xlsx'
          ? {
              type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
              body: summaryXlsx(report),
              ext: 'xlsx',
            }
          : { type: 'text/csv; charset=utf-8', body: summaryCsv(report), ext: 'csv' };
      return reply
        .type(file.type)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `attachment; filename="${name}.${file.ext}"`)
        .send(file.body);
    },
  );
  for (const by of ['channels', 'employees', 'teams'] as const)
    defineRoute(
      fastify,
      app,
      {
        method: 'GET',
        url: `/api/reports/${by}`,
        scope: 'reports:read',
        access: STAT,
        response: groupedReportDto,
        summary: `${by[0].toUpperCase()}${by.slice(1)} report: the Dialogs figures (new, closed, transferred, first response and handling time median/p90, ratings 1-5) per ${by.slice(0, -1)}. ${REFUSALS}`,
        tags,
        query: reportQuerySchema,
      },
      async ({ auth, query }) => groupedReport(app, auth.organisationId, query, by),
    );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/reports/time',
      scope: 'reports:read',
      access: STAT,
      response: timeReportDto,
      summary: `Working time: each operator's In work (online) / Break / offline intervals inside the period, cut at now, with the seconds of each. ${REFUSALS}`,
      tags,
      query: reportQuerySchema,
    },
    async ({ auth, query }) => timeReport(app, auth.organisationId, query),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/reports/categories',
      scope: 'reports:read',
      access: STAT,
      response: categoriesReportDto,
      summary: `Inquiry categories: requests closed per channel and category (channelId filters; includeWithoutCategory=true adds the requests closed without one). ${REFUSALS}`,
      tags,
      query: reportQuerySchema,
    },
    async ({ auth, query }) => categoriesReport(app, auth.organisationId, query),
  );
};
