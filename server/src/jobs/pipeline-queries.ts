import { type Queryable, statement } from '../db/index.ts';

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
/** How every query answers jobs: chats in id order (the order the ingest statement locks them in), then messages. */
const IN_CHAT_ORDER = 'order by chat_id, message_at';

/**
 * A chat's jobs run in the order of their messages (whatever their kind): a job is not taken while an earlier job of its chat is pending
 * and is not one of `ready` (those taken in the same step, in order). `j` is the candidate.
 */
const NO_EARLIER_PENDING = (ready: string) => `not exists (
  select 1 from pipeline_jobs e
   where e.chat_id = j.chat_id and e.message_at < j.message_at and not (${ready}))`;

/**
 * Claims due jobs that no runner holds (or whose runner's lease ran out) in one autocommit statement, counting
 * the attempt: no lock is kept while the jobs run. Oldest messages first; a job whose chat has an earlier job
 * that is not claimable now (not due, or held by another runner) waits for it.
 */
export const claimDueJobs = (q: Queryable, now: Date, claimedBy: string, leaseUntil: Date, limit: number) =>
  q.query<PipelineJob>(
    `with c as (
       update pipeline_jobs set claimed_by = $2, lease_until = $3, attempts = attempts + 1
        where id in (select j.id from pipeline_jobs j
                      where j.due_at <= $1 and (j.lease_until is null or j.lease_until <= $1)
                        and ${NO_EARLIER_PENDING('e.due_at <= $1 and (e.lease_until is null or e.lease_until <= $1)')}
                      order by j.message_at limit $4 for update skip locked)
        returning ${JOB_COLUMNS}, message_at
     ) select ${JOB_COLUMNS} from c ${IN_CHAT_ORDER}`,
    [now, claimedBy, leaseUntil, limit],
  );

/** Claims the jobs of these messages, when no runner holds them, whatever their due time (in order per chat). */
export const claimJobsOf = (
  q: Queryable,
  messageIds: string[],
  now: Date,
  claimedBy: string,
  leaseUntil: Date,
) =>
  q.query<PipelineJob>(
    `with c as (
       update pipeline_jobs set claimed_by = $3, lease_until = $4, attempts = attempts + 1
        where id in (select j.id from pipeline_jobs j
                      where j.message_id = any($1::uuid[]) and j.kind = 'conversation.inbound'
                        and (j.lease_until is null or j.lease_until <= $2)
                        and ${NO_EARLIER_PENDING('e.message_id = any($1::uuid[]) and (e.lease_until is null or e.lease_until <= $2)')}
                      order by j.id for update skip locked)
        returning ${JOB_COLUMNS}, message_at
     ) select ${JOB_COLUMNS} from c ${IN_CHAT_ORDER}`,
    [messageIds, now, claimedBy, leaseUntil],
  );

/**
 * Takes the jobs of these messages inside the transaction that runs them, when no runner holds them and no earlier
 * job of their chat is pending elsewhere: deleted here, they come back if the transaction rolls back (nothing
 * claimed, no attempt counted).
 */
export const takeJobsOf = (q: Queryable, messageIds: string[], now: Date) =>
  q.query<PipelineJob>(TAKE_JOBS_OF, [messageIds, now]);
const TAKE_JOBS_OF = statement(
  'take_jobs_of',
  `with d as (
     delete from pipeline_jobs
      where id in (select j.id from pipeline_jobs j
                    where j.message_id = any($1::uuid[]) and j.kind = 'conversation.inbound'
                      and (j.lease_until is null or j.lease_until <= $2)
                      and ${NO_EARLIER_PENDING('e.message_id = any($1::uuid[]) and (e.lease_until is null or e.lease_until <= $2)')}
                    for update skip locked)
      returning ${JOB_COLUMNS}, message_at
   ) select ${JOB_COLUMNS} from d ${IN_CHAT_ORDER}`,
);

/**
 * Gives back claimed jobs that must wait for an earlier job of their chat (it failed in this run): due with it,
 * their attempt not counted.
 */
export const deferJobs = (q: Queryable, ids: string[], claimedBy: string, dueAt: Date) =>
  q.query(
    `update pipeline_jobs set claimed_by = null, lease_until = null, due_at = greatest(due_at, $3),
            attempts = greatest(attempts - 1, 0)
      where id = any($1::uuid[]) and claimed_by = $2`,
    [ids, claimedBy, dueAt],
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

/**
 * Pipeline jobs as a part (a data-modifying CTE) of the ingest's statement: `rows` answers organisation_id,
 * message_id, chat_id, opened, message_at and due_at; a message's job is queued once.
 */
export const pipelineJobsCte = (rows: string) =>
  `insert into pipeline_jobs (organisation_id, message_id, chat_id, opened, message_at, due_at)
       ${rows}
       on conflict (message_id, kind) do nothing`;
