import { routesChat, type StageRun, type StageTx } from '../../jobs/pipeline.ts';
import type { PipelineJob } from '../../jobs/pipeline-queries.ts';
import { emitChat, routeWaiting } from './lifecycle.ts';
import { queueTeams } from './policy.ts';
import * as Q from './queries.ts';
import { lockTeam } from './routing-service.ts';

/**
 * The pipeline's last stage: a chat just opened, still Waiting with no operator, goes to an operator of its team by
 * the team's method (a returning client to their last operator first), or stays in the queue. Chat first, then the team:
 * the lock order of every chat operation. A chat taken, transferred or closed meanwhile is left as it is, so a
 * job run twice changes nothing the second time.
 */
export async function queueStage(tx: StageTx, job: PipelineJob, run: StageRun): Promise<undefined> {
  // A chat is routed when it opens; later its queue moves when operators gain room (lifecycle.distributeWaiting).
  if (!routesChat(run, job)) return;
  // Nothing to choose (taken meanwhile, or a manual team and a new client): no lock taken. Read once per run.
  let views = run.memo.get('queue') as Map<string, Q.RoutingView> | undefined;
  if (!views) {
    const opened = run.jobs
      .filter((j) => j.opened)
      .map((j) => ({ orgId: j.organisation_id, chatId: j.chat_id }));
    views = new Map((await Q.routingViews(tx.q, opened)).map((v) => [v.id, v]));
    run.memo.set('queue', views);
  }
  const view =
    views.get(job.chat_id) ??
    // A chat a bot handed back (not in the run's first read).
    (await Q.routingViews(tx.q, [{ orgId: job.organisation_id, chatId: job.chat_id }]))[0];
  if (view?.status !== 'waiting' || view.operator_id) return;
  if (view.distribution_method === 'manual' && !view.returning) return;
  const chat = await Q.lockChat(tx.q, job.organisation_id, job.chat_id);
  if (chat?.status !== 'waiting' || chat.operator_id) return;
  const team = await lockTeam(tx.q, chat.team_id);
  if (!team) return;
  if (await routeWaiting(tx, team, chat, { preferLastOperator: view.returning }))
    await emitChat(tx, chat.organisation_id, chat.id, 'chat.assigned', { teamIds: queueTeams(chat) });
}
