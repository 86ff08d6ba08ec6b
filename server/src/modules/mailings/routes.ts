import {
  idEntity,
  idParams,
  mailingAudienceCountDto,
  mailingAudienceCountSchema,
  mailingCreateSchema,
  mailingDto,
  mailingExportQuerySchema,
  mailingListQuerySchema,
  mailingSettingsDto,
  mailingSettingsSchema,
  mailingsReportDto,
  mailingTemplatesQuerySchema,
  mailingUpdateSchema,
  page,
  reportQuerySchema,
  whatsAppTemplateDto,
} from '@smartconnect/contracts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { tableCsv, tableXlsx } from '../../lib/table-file.ts';
import { channelTemplates } from '../channels/service.ts';
import { mailingsReport } from './report.ts';
import * as S from './service.ts';
import { getMailingSettings, setMailingSettings } from './settings.ts';

const tags = ['mailings'];
/** Mailings need their own right (not an operator's by default) and the plan's option (DECISIONS.md "Mailings"). */
const access = { right: 'AUTHORITY_MAILING', option: 'OPTION_MAILING' } as const;

/** Issue 33: mailings, written as drafts, started now or at a time, paused, resumed and cancelled by their author. */
export const mailingRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/mailings',
      access,
      response: page(mailingDto),
      summary: 'List the mailings (newest first, at most 500) with their figures',
      tags,
      query: mailingListQuerySchema,
    },
    async ({ auth, query }) => {
      const items = await S.listMailings(app, auth, query.status);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/mailings',
      access,
      response: mailingDto,
      summary:
        'Create a mailing (a draft). A channel that cannot write first (site chat) is refused on channelId; a template only where the channel sends registered templates (WhatsApp Cloud API)',
      tags,
      body: mailingCreateSchema,
    },
    async ({ auth, body }) => S.createMailing(app, auth, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/mailings/audience-count',
      access,
      response: mailingAudienceCountDto,
      summary:
        "The live count before sending: the audience's contacts now, who of them would be skipped and why, and an uploaded list's entries that match no contact",
      tags,
      body: mailingAudienceCountSchema,
    },
    async ({ auth, body }) => S.countAudience(app, auth, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/mailings/:id',
      access,
      response: mailingDto,
      summary:
        'A mailing with its figures now (recipients, skipped by reason, sent, delivered, read, failed, replied, opted out)',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => S.getMailing(app, auth, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/mailings/:id',
      access,
      response: mailingDto,
      summary: 'Change a draft or scheduled mailing (409 mailingStartedException once it has started)',
      tags,
      params: idParams,
      body: mailingUpdateSchema,
    },
    async ({ auth, params, body }) => S.updateMailing(app, auth, params.id, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/mailings/:id',
      access,
      response: idEntity,
      summary:
        "Delete a mailing that is not sending or paused (409 mailingStartedException); the messages it sent stay in the clients' histories",
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await S.deleteMailing(app, auth, params.id);
      return { id: params.id };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/mailings/:id/export',
      access,
      raw: true,
      rawFile: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      summary:
        "A mailing's recipients as a file, one row each (client, contact, state, skip reason, delivery status, provider error, sent, replied, opted out): format=csv (default, UTF-8 with BOM) or xlsx",
      tags,
      params: idParams,
      query: mailingExportQuerySchema,
    },
    async ({ auth, params, query, reply }) => {
      const { mailing, rows } = await S.exportRows(app, auth, params.id);
      const xlsx = query.format === 'xlsx';
      const name = `mailing-${mailing.created_at.toISOString().slice(0, 10)}-${mailing.id.slice(-8)}.${query.format}`;
      return reply
        .type(
          xlsx
            ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
            : 'text/csv; charset=utf-8',
        )
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(xlsx ? tableXlsx(S.EXPORT_HEADERS, rows, 'Recipients') : tableCsv(S.EXPORT_HEADERS, rows));
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/reports/mailings',
      scope: 'reports:read',
      access: { right: 'AUTHORITY_ALL_STAT', option: 'OPTION_MAILING' },
      response: mailingsReportDto,
      summary:
        'Reports -> Mailings: the mailings started in the period (period or from/to, in the organisation time zone) with their figures now (recipients, pending, skipped, sent, delivered, read, failed, replied, opted out) and the totals',
      tags: ['reports'],
      query: reportQuerySchema,
    },
    async ({ auth, query }) => mailingsReport(app, auth.organisationId, query),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/mailing-settings',
      access,
      response: mailingSettingsDto,
      summary:
        "The organisation's opt-out words (answered alone to a mailing, they stop advertising to the client)",
      tags,
    },
    async ({ auth }) => getMailingSettings(app, auth),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PUT',
      url: '/api/mailing-settings',
      access,
      response: mailingSettingsDto,
      summary:
        'Set the opt-out words (1 to 20, each up to 50 characters; compared ignoring case and punctuation); null goes back to the defaults (STOP, UNSUBSCRIBE, СТОП, Отписаться, Отписка)',
      tags,
      body: mailingSettingsSchema,
    },
    async ({ auth, body }) => setMailingSettings(app, auth, body.optOutWords),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/mailing-templates',
      access,
      response: page(whatsAppTemplateDto),
      summary:
        "The templates registered at the provider that a mailing of this channel may send (WhatsApp Cloud API: its WABA's approved templates, read now; none for other channels). A mailing's author needs no template right for it",
      tags,
      query: mailingTemplatesQuerySchema,
    },
    async ({ auth, query }) => {
      const items = await channelTemplates(app, auth.organisationId, query.channelId);
      return { items, total: items.length };
    },
  );
  const actions = {
    start: [
      'Start a draft: now, or at its scheduledAt when that is ahead (status scheduled)',
      S.startMailing,
    ],
    pause: ['Pause a sending or scheduled mailing', S.pauseMailing],
    resume: ['Resume a paused mailing where it stopped (its channel must be active)', S.resumeMailing],
    cancel: ['Cancel a mailing: nobody still pending is sent to', S.cancelMailing],
  } as const;
  for (const [action, [summary, run]] of Object.entries(actions))
    defineRoute(
      fastify,
      app,
      {
        method: 'POST',
        url: `/api/mailings/:id/${action}`,
        access,
        response: mailingDto,
        summary: `${summary}; 409 mailingStateException when the mailing's state does not allow it`,
        tags,
        params: idParams,
      },
      async ({ auth, params }) => run(app, auth, params.id),
    );
};
