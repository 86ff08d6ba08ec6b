import { dialogsReportDto, reportQuerySchema } from '@smartconnect/contracts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { dialogsReport } from './service.ts';

const tags = ['reports'];

/** Reports from the hourly rollups (rollup.ts): the organisation's, and an operator's own (the unguarded /report). */
export const reportRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/reports/dialogs',
      access: { right: 'AUTHORITY_ALL_STAT', option: 'OPTION_STATISTIC' },
      response: dialogsReportDto,
      summary:
        "Dialogs report: new, closed, transferred, first response and handling time (avg, median, p90), ratings 1-5, messages in/out; totals and a series by day or hour in the given time zone. 400 when neither a period nor a start and end date is given; 403 optionUnavailableException without OPTION_STATISTIC ('Statistics only in the extended tariff')",
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
};
