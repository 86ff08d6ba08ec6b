import type { MessageDto } from '@smartconnect/contracts';
import { kickOutbox } from '../../jobs/outbox.ts';
import { registerStage } from '../../jobs/pipeline.ts';
import { registerTimer } from '../../jobs/timers.ts';
import { onEvent } from '../../realtime/consumers.ts';
import { lockTimerChat } from '../conversation/timers.ts';
import { autoRepliesStage, fireHolding, HOLDING_TIMER } from './stage.ts';

/**
 * Auto-replies plug in: the pipeline's 'auto_replies' stage, the holding phrase's timer, and a kick of the outbox
 * after a commit that wrote an automation message to a client (the stage and the timer write inside their own
 * transactions; without the kick the dispatcher's next poll delivers it).
 */
export function registerAutoReplies(): void {
  registerStage('auto_replies', autoRepliesStage);
  registerTimer(HOLDING_TIMER, { lock: lockTimerChat, fire: fireHolding });
  onEvent('message.created', (app, event) => {
    const m = event.payload as MessageDto | null;
    if (m?.direction === 'out' && m.status === 'pending' && !m.author) kickOutbox(app);
  });
}
