import { registerStage } from '../../jobs/pipeline.ts';
import { registerTimer } from '../../jobs/timers.ts';
import { queueStage } from './queue-stage.ts';
import { CHAT_TIMERS } from './timers.ts';

/** The conversation module's queue stage and its chat timers. */
export function registerConversation(): void {
  registerStage('queue', queueStage);
  for (const [kind, handler] of Object.entries(CHAT_TIMERS))
    registerTimer(kind as keyof typeof CHAT_TIMERS, handler);
}
