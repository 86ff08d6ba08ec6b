import {
  FIELD_MESSAGES as M,
  MAILING_SKIP_REASONS,
  type MailingAudienceCountDto,
  type MailingCreate,
  type MailingDto,
  type MailingFiguresDto,
  type MailingSkipReason,
  type MailingStatus,
  type MailingUpdate,
  type mailingAudienceCountSchema,
} from '@smartconnect/contracts';
import type { z } from 'zod';
import { channelCapabilities } from '../../channels/registry.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { schedulePoll } from '../../jobs/polls.ts';
import { type Tx, withEvents } from '../../realtime/emit.ts';
import { emitLogOnly } from '../../realtime/log-only.ts';
import { forgetInboundChannels, getChannel } from '../channels/service.ts';
import { audienceSql, notFoundSql } from './audience.ts';
import * as Q from './queries.ts';
import { effectiveRate, inWindow, windowOf } from './rates.ts';
import { needRepliesSeen } from './settings.ts';

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
/** The send window as written in the API (HH:MM), or null. */
const presentWindow = (row: Q.MailingRow) => {
  const w = windowOf(row);
  return w ? { from: hhmm(w.from), to: hhmm(w.to) } : null;
};
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

type EventTx = Pick<Tx, 'q' | 'emit'>;

/** The channel a mailing is sent through: live, of the organisation, and able to write first (or in a session window). */
async function mailingChannel(
  app: AppContext,
  orgId: string,
  channelId: string,
  template: boolean,
  q: Queryable = app.db,
) {
  let channel: Awaited<ReturnType<typeof getChannel>>;
  try {
    channel = await getChannel(app, orgId, channelId, q);
  } catch (err) {
    // Not a live channel of the organisation: the field is wrong (a database failure stays what it is).
    if (!(err instanceof AppError)) throw err;
    throw new AppError('validationException', { channelId: M.valueIncorrect });
  }
  const caps = channelCapabilities(channel.type, channel.settings);
  // Site chat cannot write first at all; Instagram, Facebook and WhatsApp only within their session window (a
  // recipient outside it is skipped), WhatsApp's Cloud API outside it with a registered template.
  if (!caps.startDialog && caps.sessionWindowHours == null)
    throw new AppError('validationException', { channelId: M.channelCannotStartDialogs });
  if (template && !caps.templates) throw new AppError('validationException', { template: M.valueIncorrect });
  return { channel, caps };
}

function toWrite(input: MailingCreate): Q.MailingWrite {
  return {
    name: input.name,
    channelId: input.channelId,
    marketingType: input.marketingType,
    text: input.text,
    attachments: input.attachments,
    template: input.template,
    audience: input.audience,
    scheduledAt: input.scheduledAt,
    windowFrom: input.sendWindow ? minutes(input.sendWindow.from) : null,
    windowTo: input.sendWindow ? minutes(input.sendWindow.to) : null,
    ratePerSecond: input.ratePerSecond,
  };
}

const EMPTY_SKIPS = () =>
  Object.fromEntries(MAILING_SKIP_REASONS.map((r) => [r, 0])) as Record<MailingSkipReason, number>;

/** A recipients' figures row as the API names them (the mailing's page and Reports -> Mailings). */
export const figuresOf = (s: Q.StatsRow | undefined): MailingFiguresDto => ({
  recipients: s?.recipients ?? 0,
  pending: s?.pending ?? 0,
  skipped: s?.skipped ?? 0,
  sent: s?.sent ?? 0,
  delivered: s?.delivered ?? 0,
  read: s?.read ?? 0,
  failed: s?.failed ?? 0,
  replied: s?.replied ?? 0,
  optedOut: s?.opted_out ?? 0,
});

/** Mailings as the API shows them, with their figures: three statements whatever the number of mailings. */
async function presentAll(app: AppContext, q: Queryable, rows: Q.MailingRow[]): Promise<MailingDto[]> {
  const ids = rows.map((r) => r.id);
  // Side by side on the pool; one after another on a transaction's one connection (mailing.finished's).
  const [stats, skips, failures] =
    q === app.db
      ? await Promise.all([Q.mailingStats(q, ids), Q.skippedBy(q, ids), Q.failureReasons(q, ids)])
      : [await Q.mailingStats(q, ids), await Q.skippedBy(q, ids), await Q.failureReasons(q, ids)];
  const statsOf = new Map(stats.map((s) => [s.mailing_id, s]));
  const now = app.clock.now();
  return rows.map((row) => {
    const skippedBy = EMPTY_SKIPS();
    for (const s of skips) if (s.mailing_id === row.id) skippedBy[s.skip_reason] = s.n;
    const errors = failures
      .filter((e) => e.mailing_id === row.id)
      .map((e) => ({ reason: e.reason, count: e.n }));
    const window = windowOf(row);
    return {
      id: row.id,
      name: row.name,
      channel: {
        id: row.channel_id,
        name: row.channel_name,
        type: row.channel_type as MailingDto['channel']['type'],
      },
      marketingType: row.marketing_type,
      text: row.text,
      attachments: row.attachments,
      template: row.template,
      audience: row.audience,
      scheduledAt: iso(row.scheduled_at),
      sendWindow: presentWindow(row),
      ratePerSecond: row.rate_per_second,
      effectiveRate: effectiveRate(app, row.channel_type, row.rate_per_second),
      status: row.status,
      pauseReason: row.pause_reason,
      waitingForWindow: row.status === 'sending' && !!window && !inWindow(window, row.time_zone, now),
      waitingForLimitUntil:
        row.status === 'sending' && row.limit_wait_until && new Date(row.limit_wait_until) > now
          ? new Date(row.limit_wait_until).toISOString()
          : null,
      author: row.created_by ? { id: row.created_by, name: row.author_name ?? '' } : null,
      createdAt: new Date(row.created_at).toISOString(),
      startedAt: iso(row.started_at),
      finishedAt: iso(row.finished_at),
      stats: { ...figuresOf(statsOf.get(row.id)), skippedBy, errors },
    };
  });
}

async function found(q: Queryable, orgId: string, id: string, lock = false) {
  const row = await (lock ? Q.lockMailing : Q.findMailing)(q, orgId, id);
  if (!row) throw new AppError('mailingNotFoundException');
  return row;
}

export async function listMailings(app: AppContext, auth: AuthContext, status: MailingStatus | undefined) {
  return presentAll(app, app.db, await Q.listMailings(app.db, auth.organisationId, status ?? null));
}

export async function getMailing(app: AppContext, auth: AuthContext, id: string) {
  const [mailing] = await presentAll(app, app.db, [await found(app.db, auth.organisationId, id)]);
  return mailing;
}

export async function createMailing(app: AppContext, auth: AuthContext, input: MailingCreate) {
  await mailingChannel(app, auth.organisationId, input.channelId, input.template !== null);
  const { id } = await Q.insertMailing(
    app.db,
    auth.organisationId,
    auth.userId,
    toWrite(input),
    app.clock.now(),
  );
  return getMailing(app, auth, id);
}

/** A draft or scheduled mailing's changes; a started one answers mailingStartedException. */
export async function updateMailing(app: AppContext, auth: AuthContext, id: string, input: MailingUpdate) {
  await app.db.tx(async (q) => {
    const row = await found(q, auth.organisationId, id, true);
    if (row.status !== 'draft' && row.status !== 'scheduled') throw new AppError('mailingStartedException');
    const current: MailingCreate = {
      name: row.name,
      channelId: row.channel_id,
      marketingType: row.marketing_type,
      text: row.text,
      attachments: row.attachments,
      template: row.template,
      audience: row.audience,
      scheduledAt: iso(row.scheduled_at),
      sendWindow: presentWindow(row),
      ratePerSecond: row.rate_per_second,
    };
    const next: MailingCreate = { ...current, ...stripUndefined(input) } as MailingCreate;
    if (!next.text.trim() && !next.attachments.length && !next.template)
      throw new AppError('validationException', { text: M.requiredFields });
    await mailingChannel(app, auth.organisationId, next.channelId, next.template !== null, q);
    await Q.updateMailing(q, id, toWrite(next), app.clock.now());
  });
  return getMailing(app, auth, id);
}

const stripUndefined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export async function deleteMailing(app: AppContext, auth: AuthContext, id: string) {
  await app.db.tx(async (q) => {
    const row = await found(q, auth.organisationId, id, true);
    if (row.status === 'sending' || row.status === 'paused') throw new AppError('mailingStartedException');
    await Q.deleteMailing(q, id);
  });
}

/**
 * mailing.finished (a log-only event, for webhooks), in the transaction that ended the mailing's run (finished or
 * cancelled): the mailing as the API shows it, with its figures at that moment.
 */
async function emitFinished(app: AppContext, tx: EventTx, orgId: string, id: string): Promise<void> {
  await emitLogOnly(tx, orgId, 'mailing.finished', async () => {
    const [mailing] = await presentAll(app, tx.q, [await found(tx.q, orgId, id)]);
    return mailing;
  });
}

/** Finishes a sending mailing with nobody left pending, with its event; answers whether it did. */
export async function finishIfDone(
  app: AppContext,
  tx: EventTx,
  orgId: string,
  id: string,
): Promise<boolean> {
  if (!(await Q.finishIfDone(tx.q, id, app.clock.now()))) return false;
  await emitFinished(app, tx, orgId, id);
  return true;
}

/**
 * Plans a mailing's recipients now (the audience as it is at this moment: each pending or skipped with the reason)
 * and hands it to its channel's sender; a mailing with nobody to send to is finished at once.
 */
export async function beginSending(app: AppContext, tx: EventTx, row: Q.MailingRow): Promise<void> {
  const { q } = tx;
  const now = app.clock.now();
  const { caps } = await mailingChannel(app, row.organisation_id, row.channel_id, row.template !== null, q);
  const audience = audienceSql(row.audience, {
    orgId: row.organisation_id,
    channelId: row.channel_id,
    marketingType: row.marketing_type,
    sessionHours: caps.sessionWindowHours,
    template: row.template !== null,
    now,
  });
  await Q.planRecipients(q, row.id, row.organisation_id, audience);
  await Q.setStatus(q, row.id, 'sending', now, { started: true });
  await needRepliesSeen(q, row.organisation_id);
  if (!(await finishIfDone(app, tx, row.organisation_id, row.id)))
    await schedulePoll(q, row.organisation_id, row.channel_id, now, 'mailing');
}

/** Starts a draft: at its scheduled time when that is still ahead ('scheduled'), else now ('sending'). */
export async function startMailing(app: AppContext, auth: AuthContext, id: string) {
  await withEvents(app, async (q, emit) => {
    const row = await found(q, auth.organisationId, id, true);
    if (row.status !== 'draft') throw new AppError('mailingStateException');
    if (row.scheduled_at && new Date(row.scheduled_at).getTime() > app.clock.now().getTime())
      await Q.setStatus(q, id, 'scheduled', app.clock.now());
    else await beginSending(app, { q, emit }, row);
  });
  // A started mailing makes every client message pass the pipeline (needRepliesSeen): seen here at once.
  forgetInboundChannels(app);
  return getMailing(app, auth, id);
}

export async function pauseMailing(app: AppContext, auth: AuthContext, id: string) {
  await app.db.tx(async (q) => {
    const row = await found(q, auth.organisationId, id, true);
    if (row.status !== 'sending' && row.status !== 'scheduled') throw new AppError('mailingStateException');
    await Q.setStatus(q, id, 'paused', app.clock.now(), { pauseReason: 'author' });
  });
  return getMailing(app, auth, id);
}

/** Resumes a paused mailing where it stopped (one never started is planned now); its channel must be live again. */
export async function resumeMailing(app: AppContext, auth: AuthContext, id: string) {
  await withEvents(app, async (q, emit) => {
    const row = await found(q, auth.organisationId, id, true);
    if (row.status !== 'paused') throw new AppError('mailingStateException');
    const { channel } = await mailingChannel(
      app,
      row.organisation_id,
      row.channel_id,
      row.template !== null,
      q,
    );
    if (channel.status !== 'active') throw new AppError('deactivatedChannelException');
    const now = app.clock.now();
    if (!row.started_at) {
      await beginSending(app, { q, emit }, row);
      return;
    }
    await Q.setStatus(q, id, 'sending', now);
    if (!(await finishIfDone(app, { q, emit }, row.organisation_id, id)))
      await schedulePoll(q, row.organisation_id, row.channel_id, now, 'mailing');
  });
  forgetInboundChannels(app);
  return getMailing(app, auth, id);
}

/**
 * Cancels a mailing not yet finished: nobody still pending is sent to; what was sent stays sent. Its run has ended:
 * mailing.finished (status 'cancelled').
 */
export async function cancelMailing(app: AppContext, auth: AuthContext, id: string) {
  await withEvents(app, async (q, emit) => {
    const row = await found(q, auth.organisationId, id, true);
    if (row.status === 'finished' || row.status === 'cancelled' || row.status === 'draft')
      throw new AppError('mailingStateException');
    await Q.setStatus(q, id, 'cancelled', app.clock.now(), { finished: true });
    await emitFinished(app, { q, emit }, auth.organisationId, id);
  });
  return getMailing(app, auth, id);
}

/** The live count before sending: the audience's contacts now, who of them would be skipped and why. */
export async function countAudience(
  app: AppContext,
  auth: AuthContext,
  input: z.output<typeof mailingAudienceCountSchema>,
): Promise<MailingAudienceCountDto> {
  const { caps } = await mailingChannel(app, auth.organisationId, input.channelId, false);
  const query = audienceSql(input.audience, {
    orgId: auth.organisationId,
    channelId: input.channelId,
    marketingType: input.marketingType,
    sessionHours: caps.sessionWindowHours,
    template: input.template,
    now: app.clock.now(),
  });
  const skipped = EMPTY_SKIPS();
  let total = 0;
  let eligible = 0;
  for (const r of await Q.countAudience(app.db, query)) {
    total += r.n;
    if (r.skip_reason) skipped[r.skip_reason] = r.n;
    else eligible = r.n;
  }
  const notFound = input.audience.list?.length
    ? await Q.countNotFound(app.db, notFoundSql(input.audience.list, input.channelId))
    : 0;
  return { total, eligible, skipped, notFound };
}

/** Starts the scheduled mailings whose time has come, and pauses those whose channel stopped (a periodic task). */
export async function startDueMailings(app: AppContext): Promise<void> {
  const now = app.clock.now();
  await Q.pauseOnInactiveChannels(app.db, now);
  await withEvents(app, async (q, emit) => {
    for (const due of await Q.dueScheduled(q, now, 20)) {
      const row = await Q.findMailing(q, due.organisation_id, due.id);
      if (row) await beginSending(app, { q, emit }, row);
    }
  });
  forgetInboundChannels(app);
}

export const EXPORT_HEADERS = [
  'Client',
  'Contact',
  'State',
  'Skip reason',
  'Delivery status',
  'Provider error',
  'Sent at (UTC)',
  'Replied at (UTC)',
  'Opted out at (UTC)',
] as const;

/** A mailing's recipients as rows of its export (CSV or XLSX). */
export async function exportRows(app: AppContext, auth: AuthContext, id: string) {
  const mailing = await found(app.db, auth.organisationId, id);
  const at = (d: Date | null) => (d ? new Date(d).toISOString().replace('T', ' ').slice(0, 19) : '');
  const rows = (await Q.recipientsForExport(app.db, id)).map((r) => [
    r.client_name,
    r.external_id,
    r.state,
    r.skip_reason ?? '',
    r.status === 'undelivered' ? 'failed' : (r.status ?? ''),
    r.status_reason ?? '',
    at(r.sent_at),
    at(r.replied_at),
    at(r.opted_out_at),
  ]);
  return { mailing, rows };
}
