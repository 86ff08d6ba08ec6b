import type { MailingFiguresDto, MailingsReport, ReportQuery } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { resolveReportPeriod } from '../reports/service.ts';
import * as Q from './queries.ts';

const ZERO: MailingFiguresDto = {
  recipients: 0,
  pending: 0,
  skipped: 0,
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  replied: 0,
  optedOut: 0,
};

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
  const totals = { ...ZERO };
  const items = rows.map((r) => {
    const s = stats.get(r.id);
    const figures: MailingFiguresDto = {
      recipients: s?.recipients ?? 0,
      pending: s?.pending ?? 0,
      skipped: s?.skipped ?? 0,
      sent: s?.sent ?? 0,
      delivered: s?.delivered ?? 0,
      read: s?.read ?? 0,
      failed: s?.failed ?? 0,
      replied: s?.replied ?? 0,
      optedOut: s?.opted_out ?? 0,
    };
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
