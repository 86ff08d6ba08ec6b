import type { Queryable } from '../db/index.ts';

/**
 * A job is due this long after its message was stored: the storing instance runs it at once (runJobsNow), the
 * pollers of every instance take what it leaves (it died, or the job failed there).
 */
export const PIPELINE_HANDOVER_SECONDS = 5;

/** One inbound message waiting for the pipeline's decision. */
export type PipelineJob = {
  id: string;
  organisation_id: string;
  message_id: string;
  chat_id: string;
  /** The message opened its chat (a new client, or a new session). */
  opened: boolean;
  /** Runs so far, this one included. */
  attempts: number;
};

const JOB_COLUMNS = 'id, organisation_id, message_id, chat_id, opened, attempts';

/**
 * Claims due jobs that no runner holds (or whose runner's lease ran out) in one autocommit statement, counting
 * the attempt: no lock is kept while the jobs run.
 */
export const claimDueJobs = (q: Queryable, now: Date, claimedBy: string, leaseUntil: Date, limit: number) =>
  q.query<PipelineJob>(
    `update pipeline_jobs set claimed_by = $2, lease_until = $3, attempts = attempts + 1
      where id in (select id from pipeline_jobs where due_at <= $1 and (lease_until is null or lease_until <= $1)
                    order by due_at, id limit $4 for update skip locked)
      returning ${JOB_COLUMNS}`,
    [now, claimedBy, leaseUntil, limit],
  );

/** Claims the jobs of these messages, when no runner holds them, whatever their due time. */
export const claimJobsOf = (
  q: Queryable,
  messageIds: string[],
  now: Date,
  claimedBy: string,
  leaseUntil: Date,
) =>
  q.query<PipelineJob>(
    `update pipeline_jobs set claimed_by = $3, lease_until = $4, attempts = attempts + 1
      where id in (select id from pipeline_jobs where message_id = any($1::uuid[]) and kind = 'conversation.inbound'
                      and (lease_until is null or lease_until <= $2)
                    order by id for update skip locked)
      returning ${JOB_COLUMNS}`,
    [messageIds, now, claimedBy, leaseUntil],
  );

/**
 * Takes the jobs of these messages inside the transaction that runs them, when no runner holds them: deleted
 * here, they come back if the transaction rolls back (nothing claimed, no attempt counted).
 */
export const takeJobsOf = (q: Queryable, messageIds: string[], now: Date) =>
  q.query<PipelineJob>(
    `delete from pipeline_jobs
        where id in (select id from pipeline_jobs where message_id = any($1::uuid[]) and kind = 'conversation.inbound'
                        and (lease_until is null or lease_until <= $2)
                      for update skip locked)
        returning ${JOB_COLUMNS}`,
    [messageIds, now],
  );

/** Consumes claimed jobs inside the transaction that runs them: the ids still this runner's. */
export const takeClaimedJobs = async (q: Queryable, ids: string[], claimedBy: string) =>
  new Set(
    (
      await q.query<{ id: string }>(
        'delete from pipeline_jobs where id = any($1::uuid[]) and claimed_by = $2 returning id',
        [ids, claimedBy],
      )
    ).map((r) => r.id),
  );

/** Gives a job back after a failed run: it runs again from `dueAt`. */
export const releaseJob = (q: Queryable, id: string, claimedBy: string, dueAt: Date, error: string) =>
  q.query(
    `update pipeline_jobs set claimed_by = null, lease_until = null, due_at = $3, last_error = $4
      where id = $1 and claimed_by = $2`,
    [id, claimedBy, dueAt, error],
  );

/** Jobs not done yet (the crash test's "left undone"). */
export const pendingJobCount = async (q: Queryable) =>
  Number((await q.query<{ n: string }>('select count(*) as n from pipeline_jobs'))[0]?.n ?? 0);
