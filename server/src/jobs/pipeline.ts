import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/index.ts';
import { type Emit, withEvents } from '../realtime/emit.ts';
import * as Q from './pipeline-queries.ts';

export type { PipelineJob } from './pipeline-queries.ts';

/**
 * The conversation pipeline's stages, in the order they run for each inbound message that needs a decision.
 * Each slot is filled by the module that owns it (registerStage): blacklist (clients), bot (bot runtime), rules
 * (routing rules by priority), auto_replies, queue (the team queue and operator pick, the chats module).
 */
export const STAGES = ['blacklist', 'bot', 'rules', 'auto_replies', 'queue'] as const;
export type StageName = (typeof STAGES)[number];

export type StageTx = { q: Queryable; emit: Emit; now: Date };
/** 'stop' ends the chain for this message (a blacklisted client, a bot that answered, a rule that closed it). */
export type StageResult = 'continue' | 'stop';
export type Stage = (tx: StageTx, job: Q.PipelineJob, app: AppContext) => Promise<StageResult | undefined>;

const stages = new Map<StageName, Stage>();

/** Fills a stage's slot (registering it again replaces it). Modules call this from their setup (modules/setup.ts). */
export function registerStage(name: StageName, stage: Stage): void {
  stages.set(name, stage);
}

export const PIPELINE = {
  /** A claimed job is left to its runner this long; if that instance dies another one runs it after. */
  leaseMs: 60_000,
  batch: 50,
  /** Backoff after a failed run: base * 2^(attempts-1), capped. A job is never dropped. */
  baseDelayMs: 1_000,
  maxDelayMs: 5 * 60_000,
} as const;

const LOCK_CYCLE = new Set(['40P01', '40001']);

/**
 * Runs one claimed job: in ONE transaction, the job row is taken (only while it is still this run's claim) and
 * every stage runs in order until one stops the chain. A stage that throws rolls everything back, the job is
 * given back with a backoff and runs again from the first stage later: nothing it did is kept twice, and the
 * message is never dropped. Answers whether the job was done here.
 */
async function runJob(app: AppContext, job: Q.PipelineJob, claimedBy: string): Promise<boolean> {
  const now = app.clock.now();
  try {
    return await withEvents(app, async (q, emit) => {
      if (!(await Q.takeClaimedJob(q, job.id, claimedBy))) return false;
      const tx = { q, emit, now };
      for (const name of STAGES) {
        const stage = stages.get(name);
        if (stage && (await stage(tx, job, app)) === 'stop') break;
      }
      return true;
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    const wait =
      code && LOCK_CYCLE.has(code)
        ? 0
        : Math.min(PIPELINE.baseDelayMs * 2 ** Math.max(0, job.attempts - 1), PIPELINE.maxDelayMs);
    app.log.error({ err, job: job.id, message: job.message_id }, 'pipeline job failed; it will run again');
    await Q.releaseJob(app.db, job.id, claimedBy, new Date(now.getTime() + wait), String(err).slice(0, 500));
    return false;
  }
}

/**
 * Runs every due job, oldest first: claimed in a short committed step (`FOR UPDATE SKIP LOCKED`, leased to this
 * run, attempt counted), then each in a transaction of its own. Across runs and instances a job is done exactly
 * once; a claim whose runner died is taken over when its lease ends. Answers how many jobs were done.
 */
export async function runPipeline(app: AppContext, max = 1000): Promise<number> {
  const claimedBy = randomUUID();
  let done = 0;
  let seen = 0;
  while (seen < max) {
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
    // Jobs of one chat in their order (uuid v7 ids sort by creation); chats side by side.
    const byChat = new Map<string, Q.PipelineJob[]>();
    for (const job of batch) byChat.set(job.chat_id, [...(byChat.get(job.chat_id) ?? []), job]);
    const results = await Promise.all(
      [...byChat.values()].map(async (jobs) => {
        let n = 0;
        for (const job of jobs) if (await runJob(app, job, claimedBy)) n++;
        return n;
      }),
    );
    done += results.reduce((a, b) => a + b, 0);
  }
  return done;
}

/**
 * Runs the jobs of these messages now, on the instance that stored them, right after the ingest commit: a new
 * chat reaches its operator without waiting for the next poll. A job already claimed elsewhere is left to its
 * runner; one that fails stays in the table for the poller. Never throws: the messages are stored already.
 */
export async function runJobsNow(app: AppContext, messageIds: string[]): Promise<void> {
  if (!messageIds.length) return;
  const claimedBy = randomUUID();
  try {
    const now = app.clock.now();
    const jobs = await Q.claimJobsOf(
      app.db,
      messageIds,
      now,
      claimedBy,
      new Date(now.getTime() + PIPELINE.leaseMs),
    );
    for (const job of jobs) await runJob(app, job, claimedBy);
  } catch (err) {
    app.log.error({ err }, 'pipeline run after ingest failed; the poller will run the jobs');
  }
}
