import { registerStage } from '../../jobs/pipeline.ts';
import { registerTimer } from '../../jobs/timers.ts';
import { registerReplayPolicy } from '../../realtime/replay-policies.ts';
import { queueStage } from './queue-stage.ts';
import { chatReplayPolicy } from './replay-policy.ts';
import { CHAT_TIMERS } from './timers.ts';

/** The chats module's queue stage, its timers and its replay policy for reconnecting sockets. */
export function registerChats(): void {
  registerStage('queue', queueStage);
  for (const [kind, handler] of Object.entries(CHAT_TIMERS))
    registerTimer(kind as keyof typeof CHAT_TIMERS, handler);
  registerReplayPolicy('chats', chatReplayPolicy);
}
