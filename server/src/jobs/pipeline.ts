import { randomUUID } from 'node:crypto';
import { type AppContext, stateSlot } from '../context.ts';
import type { Queryable } from '../db/index.ts';
import { withSpan } from '../lib/tracing.ts';
import { type Emit, withEvents } from '../realtime/emit.ts';
import * as Q from './pipeline-queries.ts';
import { jobsStopping } from './stopping.ts';

export type { PipelineJob } from './pipeline-queries.ts';

/**
 * The conversation pipeline's stages, in the order they run for each inbound message that needs a decision.
 * Each slot is filled by the module that owns it (registerStage): blacklist (clients), mailing_replies (mailings:
 * a reply to a mailing, and an opt-out word), bot (bot runtime), rules (routing rules by priority), auto_replies,
 * queue (the team queue and operator pick, the conversation module).
 */
export const STAGES = ['blacklist', 'mailing_replies', 'bot', 'rules', 'auto_replies', 'queue'] as const;
export type StageName = (typeof STAGES)[number];

export type StageTx = { q: Queryable; emit: Emit; now: Date };
/** 'stop' ends the chain for this message (a blacklisted client, a bot that answered, a rule that closed it). */
export type StageResult = 'continue' | 'stop';
/**
 * The jobs run together in one transaction, and a memo a stage may fill once per run (e.g. one query for all the
 * run's chats instead of one per job), keyed by the stage's own name.
 */
export type StageRun = { jobs: readonly Q.PipelineJob[]; memo: Map<string, unknown> };
export type Stage = (
  tx: StageTx,
  job: Q.PipelineJob,
  run: StageRun,
  app: AppContext,
) => Promise<StageResult | undefined>;

/**
 * A stage that hands a chat back to ordinary routing (a chat bot whose dialog ended without placing the chat) asks
 * the later stages to route it as at its opening: `routesChat` is then true for the job.
 */
export function routeAgain(run: StageRun, job: Q.PipelineJob): void {
  let marked = run.memo.get('pipeline.routeAgain') as Set<string> | undefined;
  if (!marked) {
    marked = new Set();
    run.memo.set('pipeline.routeAgain', marked);
  }
  marked.add(job.id);
}
/** An earlier stage handed the job's chat back to routing (routeAgain). */
export const handedBack = (run: StageRun, job: Q.PipelineJob): boolean =>
  (run.memo.get('pipeline.routeAgain') as Set<string> | undefined)?.has(job.id) ?? false;
/** The job routes its chat: it opened the chat, or an earlier stage handed the chat back (routeAgain). */
export const routesChat = (run: StageRun, job: Q.PipelineJob): boolean => job.opened || handedBack(run, job);

/**
 * The job's chat was opened by the client's reply to a mailing of this marketing type (the mailing_replies stage
 * says so); the rules stage then routes it with message type 'mailing'.
 */
export function markMailingReply(
  run: StageRun,
  job: Q.PipelineJob,
  marketingType: 'service' | 'advertising',
): void {
  let marked = run.memo.get('pipeline.mailingReply') as Map<string, 'service' | 'advertising'> | undefined;
  if (!marked) {
    marked = new Map();
    run.memo.set('pipeline.mailingReply', marked);
  }
  marked.set(job.id, marketingType);
}
/** The marketing type of the mailing the job's message replies to (markMailingReply), or null. */
export const mailingReplyOf = (run: StageRun, job: Q.PipelineJob): 'service' | 'advertising' | null =>
  (run.memo.get('pipeline.mailingReply') as Map<string, 'service' | 'advertising'> | undefined)?.get(
    job.id,
  ) ?? null;

const stages = new Map<StageName, Stage>();

/** Fills a stage's slot (registering it again replaces it). Modules call this from their setup (modules/setup.ts). */
export function registerStage(name: StageName, stage: Stage): void {
  stages.set(name, stage);
}

export const PIPELINE = {
  /** A claimed job is left to its runner this long; if that instance dies another one runs it after. */
  leaseMs: 60_000,
  batch: 100,
  /** Backoff after a failed run: base * 2^(attempts-1), capped. A job is never dropped. */
  baseDelayMs: 1_000,
  maxDelayMs: 5 * 60_000,
} as const;

const LOCK_CYCLE = new Set(['40P01', '40001']);

/** A job's stages, in order, until one stops the chain (its row already taken in this transaction). */
async function runStages(app: AppContext, tx: StageTx, job: Q.PipelineJob, run: StageRun): Promise<void> {
  for (const name of STAGES) {
    const stage = stages.get(name);
    if (stage && (await stage(tx, job, run, app)) === 'stop') break;
  }
}

const runOf = (jobs: readonly Q.PipelineJob[]): StageRun => ({ jobs, memo: new Map() });

/** A job's run on its own: done, not run (taken by another runner), or failed (it runs again from `retryAt`). */
type JobOutcome = { done: boolean; retryAt?: Date };

/**
 * Runs one claimed job: in ONE transaction, the job row is taken (only while it is still this run's claim) and
 * every stage runs in order until one stops the chain. A stage that throws rolls everything back, the job is
 * given back with a backoff and runs again from the first stage later: nothing it did is kept twice, and the
 * message is never dropped.
 */
async function runJob(app: AppContext, job: Q.PipelineJob, claimedBy: string): Promise<JobOutcome> {
  const now = app.clock.now();
  try {
    const done = await withEvents(app, async (q, emit) => {
      if (!(await Q.takeClaimedJobs(q, [job.id], claimedBy)).has(job.id)) return false;
      await runStages(app, { q, emit, now }, job, runOf([job]));
      return true;
    });
    return { done };
  } catch (err) {
    const code = (err as { code?: string }).code;
    const wait =
      code && LOCK_CYCLE.has(code)
        ? 0
        : Math.min(PIPELINE.baseDelayMs * 2 ** Math.max(0, job.attempts - 1), PIPELINE.maxDelayMs);
    const retryAt = new Date(now.getTime() + wait);
    app.log.error({ err, job: job.id, message: job.message_id }, 'pipeline job failed; it will run again');
    await Q.releaseJob(app.db, job.id, claimedBy, retryAt, String(err).slice(0, 500));
    return { done: false, retryAt };
  }
}

/**
 * Runs claimed jobs (in chat order, as the queries answer them) one transaction each. Once a job of a chat fails,
 * the chat's later jobs are given back to wait for it: a chat's messages pass the stages in order. Answers how many
 * jobs were done.
 */
async function runEach(app: AppContext, jobs: readonly Q.PipelineJob[], claimedBy: string): Promise<number> {
  let done = 0;
  const failed = new Map<string, Date>();
  for (const job of jobs) {
    const blockedUntil = failed.get(job.chat_id);
    if (blockedUntil) {
      await Q.deferJobs(app.db, [job.id], claimedBy, blockedUntil);
      continue;
    }
    const outcome = await runJob(app, job, claimedBy);
    if (outcome.done) done++;
    else if (outcome.retryAt) failed.set(job.chat_id, outcome.retryAt);
  }
  return done;
}

/**
 * Runs claimed jobs together in ONE transaction (one commit for many messages, like the ingest batch), in chat
 * order (chats in id order, the order the ingest statement locks them in; each chat's jobs in message order). Any
 * failure rolls the whole run back and every job then runs in a transaction of its own, so a job that throws
 * fails alone. Answers how many jobs were done.
 */
async function runJobs(app: AppContext, jobs: Q.PipelineJob[], claimedBy: string): Promise<number> {
  if (!jobs.length) return 0;
  if (jobs.length === 1) return runEach(app, jobs, claimedBy);
  try {
    const now = app.clock.now();
    return await withEvents(app, async (q, emit) => {
      const taken = await Q.takeClaimedJobs(
        q,
        jobs.map((j) => j.id),
        claimedBy,
      );
      const run = runOf(jobs.filter((j) => taken.has(j.id)));
      for (const job of run.jobs) await runStages(app, { q, emit, now }, job, run);
      return taken.size;
    });
  } catch {
    return runEach(app, jobs, claimedBy);
  }
}

/**
 * Runs every due job, oldest first: claimed in a short committed step (`FOR UPDATE SKIP LOCKED`, leased to this
 * run, attempt counted), then run a batch at a time (runJobs). Across runs and instances a job is done exactly
 * once; a claim whose runner died is taken over when its lease ends. Answers how many jobs were done.
 */
export async function runPipeline(app: AppContext, max = 1000): Promise<number> {
  const claimedBy = randomUUID();
  let done = 0;
  let seen = 0;
  while (seen < max && !jobsStopping(app)) {
    const now = app.clock.now();
    const batch = await Q.claimDueJobs(
      app.db,
      now,
      claimedBy,
      new Date(now.getTime() + PIPELINE.leaseMs),
      Math.min(PIPELINE.batch, max - seen),
    );
    if (!batch.length) break;
    seen += batch.length;
    done += await withSpan('pipeline.run', { 'pipeline.jobs': batch.length }, () =>
      runJobs(app, batch, claimedBy),
    );
  }
  return done;
}

type NowQueue = { waiting: { ids: string[]; done: () => void }[]; running: boolean };
const NOW_QUEUE = stateSlot<NowQueue>('pipeline.now-queue', () => ({ waiting: [], running: false }));

/**
 * Runs the jobs of these messages now, on the instance that stored them, right after the ingest commit: a new
 * chat reaches its operator without waiting for the next poll. Callers arriving while a run is in progress are
 * served together by the next one (one claim, one transaction). A job already claimed elsewhere is left to its
 * runner; one that fails stays in the table for the poller. Never throws: the messages are stored already.
 */
export function runJobsNow(app: AppContext, messageIds: string[]): Promise<void> {
  if (!messageIds.length) return Promise.resolve();
  const s = app.state.of(app, NOW_QUEUE);
  return new Promise((done) => {
    s.waiting.push({ ids: messageIds, done });
    if (!s.running) void drainNow(app, s);
  });
}

/**
 * The jobs of these messages in ONE transaction that takes them (no claim step: a rollback gives them back), in
 * chat order. A job whose chat has an earlier job pending elsewhere is not taken: the pollers run it after that one. When anything fails, each is then claimed and run on its own (runJob: backoff, attempts), so a
 * job that throws fails alone; a lone job that fails is left to the pollers (due PIPELINE_HANDOVER_SECONDS after
 * it was stored).
 */
async function runTakenNow(app: AppContext, messageIds: string[]): Promise<void> {
  let taken = 0;
  try {
    const now = app.clock.now();
    await withEvents(app, async (q, emit) => {
      const run = runOf(await Q.takeJobsOf(q, messageIds, now));
      taken = run.jobs.length;
      for (const job of run.jobs) await runStages(app, { q, emit, now }, job, run);
    });
  } catch (err) {
    // A lone job that failed is left as it was, for the pollers once it is due (then with backoff).
    if (taken <= 1) {
      app.log.error({ err, messages: messageIds }, 'pipeline job failed; a poller will run it again');
      return;
    }
    const claimedBy = randomUUID();
    const now = app.clock.now();
    const jobs = await Q.claimJobsOf(
      app.db,
      messageIds,
      now,
      claimedBy,
      new Date(now.getTime() + PIPELINE.leaseMs),
    );
    await runEach(app, jobs, claimedBy);
  }
}

async function drainNow(app: AppContext, s: NowQueue): Promise<void> {
  s.running = true;
  try {
    while (s.waiting.length) {
      const batch = s.waiting.splice(0, PIPELINE.batch);
      const ids = batch.flatMap((w) => w.ids);
      try {
        await withSpan('pipeline.run', { 'pipeline.messages': ids.length }, () => runTakenNow(app, ids));
      } catch (err) {
        app.log.error({ err }, 'pipeline run after ingest failed; the poller will run the jobs');
      }
      for (const w of batch) w.done();
    }
  } finally {
    s.running = false;
  }
}
