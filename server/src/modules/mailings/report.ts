import type { MailingFiguresDto, MailingsReport, ReportQuery } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { resolveReportPeriod } from '../reports/service.ts';
import * as Q from './queries.ts';
import { figuresOf } from './service.ts';

/**
 * Reports -> Mailings: the mailings started in the period (the organisation's time zone, as every report), each with
 * its figures as they are now (deliveries and replies keep coming after the period), and their totals.
 */
export async function mailingsReport(
  app: AppContext,
  orgId: string,
  query: ReportQuery,
): Promise<MailingsReport> {
  const period = await resolveReportPeriod(app, orgId, query);
  const rows = await Q.startedBetween(app.db, orgId, period.start, period.end);
  const stats = new Map(
    (
      await Q.mailingStats(
        app.db,
        rows.map((r) => r.id),
      )
    ).map((s) => [s.mailing_id, s]),
  );
  const totals = figuresOf(undefined);
  const items = rows.map((r) => {
    const figures = figuresOf(stats.get(r.id));
    for (const k of Object.keys(totals) as (keyof MailingFiguresDto)[]) totals[k] += figures[k];
    return {
      id: r.id,
      name: r.name,
      channel: {
        id: r.channel_id,
        name: r.channel_name,
        type: r.channel_type as MailingsReport['rows'][number]['channel']['type'],
      },
      marketingType: r.marketing_type,
      status: r.status,
      startedAt: new Date(r.started_at ?? r.created_at).toISOString(),
      figures,
    };
  });
  return {
    period: {
      from: period.from,
      to: period.to,
      start: period.start.toISOString(),
      end: period.end.toISOString(),
      timeZone: period.timeZone,
    },
    rows: items,
    totals,
  };
}
