import { setTimeout as sleep } from 'node:timers/promises';
import { fillTemplate, type TemplateValues } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import {
  claimHeldRows,
  type DeliveryOutcome,
  deliverClaimed,
  deliverClaimedMany,
} from '../../jobs/outbox.ts';
import type { Poller, PollRun } from '../../jobs/polls.ts';
import { withEvents } from '../../realtime/emit.ts';
import { providerDailyLimit } from '../channels/service.ts';
import { writeMailingMessages } from '../conversation/mailing-messages.ts';
import * as Q from './queries.ts';
import { effectiveDailyLimit, effectiveRate, inWindow, msUntilWindow, windowOf } from './rates.ts';
import { finishIfDone } from './service.ts';

export const SENDER = {
  /** Recipients written per transaction (at most one second's worth at the mailing's rate). */
  chunkMax: 200,
  /** An idle channel's sender is due again this late; starting or resuming a mailing makes it due at once. */
  idleMs: 60 * 60_000,
  /** Outside every mailing's send window the sender looks again at the window's start, at the latest this late. */
  windowRecheckMaxMs: 5 * 60_000,
  /** A written row the sender dies before delivering is sent by the outbox's pollers this much later. */
  heldMs: 60_000,
} as const;

/** The share of the limit the sender paces at. */
export const PACE_MARGIN = 0.97;

/** The values of the template variables a chunk's recipients share (the date is the organisation's today). */
const sharedValues = (m: Q.MailingRow, now: Date): TemplateValues => ({
  channel: m.channel_name,
  date: new Intl.DateTimeFormat(m.org_language === 'rus' ? 'ru-RU' : 'en-GB', {
    timeZone: m.time_zone,
  }).format(now),
  operator_name: m.author_name ?? '',
});

/**
 * One transaction: the next recipients taken, their messages and outbox rows written (held for this sender to
 * deliver), and the recipients marked sent. A crash before the commit leaves them pending; after it, the outbox
 * delivers each exactly once. Answers the outbox rows to deliver.
 */
async function writeChunk(app: AppContext, m: Q.MailingRow, size: number): Promise<string[]> {
  return withEvents(app, async (q, emit) => {
    const now = app.clock.now();
    const pending = await Q.takePending(q, m.id, size);
    if (!pending.length) return [];
    const shared = sharedValues(m, now);
    const written = await writeMailingMessages(
      { q, emit, now },
      {
        orgId: m.organisation_id,
        mailingId: m.id,
        channelId: m.channel_id,
        teamId: m.channel_team_id,
        attachments: m.attachments,
        heldUntil: new Date(now.getTime() + SENDER.heldMs),
        items: pending.map((r) => {
          const values = { ...shared, client_name: r.client_name };
          return {
            contactId: r.contact_id,
            clientId: r.client_id,
            text: fillTemplate(m.text, values),
            template: m.template
              ? { ...m.template, variables: m.template.variables.map((v) => fillTemplate(v, values)) }
              : null,
          };
        }),
      },
    );
    await Q.markSent(q, m.id, written, now);
    return written.map((w) => w.outboxId);
  });
}

/**
 * Delivers a chunk's rows at `rate` a second: each send starts at its own slot, 1/rate apart, continuing from the
 * previous chunk's last slot (never earlier than now: a late start shifts the slots, it does not bunch them), so
 * any second holds at most `rate` sends. Without a rate the chunk goes at once. A provider's rate-limit answer
 * (429 with Retry-After) moves the next slot past the wait it asked for: the sender slows down, and the refused
 * message is retried by the outbox after that wait, never dropped. Answers the next free slot.
 */
async function deliverPaced(
  app: AppContext,
  ids: string[],
  rate: number | null,
  nextSlot: number,
  signal: AbortSignal,
) {
  // Claimed together first: the moment of each send is then its HTTP call's, not a claim's round trip later.
  const rows = await claimHeldRows(app, ids);
  let slot = Math.max(nextSlot, performance.now());
  let waitUntil = 0;
  const slowDown = (outcome: DeliveryOutcome) => {
    if (!outcome.ok && outcome.retryAfterMs)
      waitUntil = Math.max(waitUntil, performance.now() + outcome.retryAfterMs);
  };
  if (rate == null) {
    // No rate to keep: the chunk's sends at once, their outcomes recorded in one transaction.
    for (const outcome of await deliverClaimedMany(app, rows)) slowDown(outcome);
    return Math.max(performance.now(), waitUntil);
  }
  // 3% under the limit: a send's arrival at the provider jitters by a few milliseconds, and the limit is counted
  // there, so slots exactly 1/rate apart could put rate + 1 arrivals in some second.
  const interval = 1000 / (rate * PACE_MARGIN);
  const lateAllowed = Math.max(0, rate * interval - 1000);
  const inFlight: Promise<unknown>[] = [];
  for (const row of rows) {
    // A 429 answered while waiting for this slot moves it (the answer arrives after its own send, not before).
    for (;;) {
      slot = Math.max(slot, waitUntil);
      const wait = slot - performance.now();
      if (wait <= 0 || signal.aborted) break;
      await sleep(wait, undefined, { signal }).catch(() => undefined);
    }
    // Stopping: the rest stay claimed and the outbox's pollers send them when the lease ends.
    if (signal.aborted) break;
    inFlight.push(deliverClaimed(app, row).then(slowDown));
    // A send started late (the event loop was busy) keeps the schedule while its lateness fits in the margin: any
    // `rate` consecutive slots span 1000 / 0.97 ms, so a send up to that excess late still leaves a whole second
    // between it and the send `rate` slots later. Later than that, the slots that follow are shifted, never bunched.
    const late = performance.now() - slot;
    if (late > lateAllowed) slot += late;
    slot += interval;
  }
  await Promise.allSettled(inFlight);
  return Math.max(slot, waitUntil);
}

/** What is left of the channel's daily limit of different recipients (a rolling 24 hours), as this session counts. */
type DailyBudget = { limit: number; used: number; first: number };

async function dailyBudget(app: AppContext, channelId: string, type: string): Promise<DailyBudget | null> {
  const limit = effectiveDailyLimit(app, type, await providerDailyLimit(app, channelId));
  if (limit == null) return null;
  const now = app.clock.now().getTime();
  const { n, first } = await Q.recipientsSince(app.db, channelId, new Date(now - DAY_MS));
  return { limit, used: n, first: first ? new Date(first).getTime() : now };
}

const DAY_MS = 24 * 3_600_000;

/**
 * The mailing sender of one channel (a background session under the channel's 'mailing' lease, jobs/polls.ts):
 * one instance at a time sends a channel's mailings, so the provider's rate holds across instances. It sends the
 * earliest started mailing that is inside its send window, chunk by chunk, reading the mailings again before each
 * chunk (a pause, a cancel or a stopped channel is seen within a second).
 */
export const mailingSender: Poller = async (app: AppContext, run: PollRun) => {
  let nextSlot = performance.now();
  // Read once a session (sessions are renewed every few minutes): the limit, and the recipients already counted.
  let daily: DailyBudget | null | undefined;
  while (!run.signal.aborted) {
    const mailings = await Q.sendingOnChannel(app.db, run.channelId);
    if (!mailings.length) return { againInMs: SENDER.idleMs };
    const now = app.clock.now();
    if (!mailings[0].channel_active) {
      await Q.pauseOnInactiveChannels(app.db, now);
      return { againInMs: SENDER.idleMs };
    }
    const ready = mailings.find((m) => {
      const w = windowOf(m);
      return !w || inWindow(w, m.time_zone, now);
    });
    if (!ready) {
      const waits = mailings.map((m) =>
        msUntilWindow(windowOf(m) ?? { from: 0, to: 1440 }, m.time_zone, now),
      );
      return { againInMs: Math.min(SENDER.windowRecheckMaxMs, Math.max(1_000, Math.min(...waits))) };
    }
    const rate = effectiveRate(app, ready.channel_type, ready.rate_per_second);
    let size = rate == null ? SENDER.chunkMax : Math.max(1, Math.min(SENDER.chunkMax, Math.ceil(rate)));
    if (daily === undefined) daily = await dailyBudget(app, run.channelId, ready.channel_type);
    if (daily) {
      const left = daily.limit - daily.used;
      if (left <= 0) {
        // The limit is reached: the channel's mailings wait until the earliest send leaves the 24 hours.
        const until = new Date(daily.first + DAY_MS);
        await Q.setLimitWait(app.db, run.channelId, until);
        const wait = until.getTime() - now.getTime();
        return { againInMs: Math.min(SENDER.windowRecheckMaxMs, Math.max(1_000, wait)) };
      }
      if (ready.limit_wait_until) await Q.setLimitWait(app.db, run.channelId, null);
      size = Math.min(size, left);
    }
    const ids = await writeChunk(app, ready, size);
    if (daily) daily.used += ids.length;
    if (!ids.length) {
      await withEvents(app, (q, emit) => finishIfDone(app, { q, emit }, ready.organisation_id, ready.id));
      continue;
    }
    nextSlot = await deliverPaced(app, ids, rate, nextSlot, run.signal);
  }
  return { againInMs: 0 };
};
