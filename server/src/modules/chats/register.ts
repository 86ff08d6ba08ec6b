import { registerReplayPolicy } from '../../realtime/replay-policies.ts';
import { chatReplayPolicy } from './replay-policy.ts';

/** The chats module's replay policy for reconnecting sockets (its queue stage and timers: conversation/register.ts). */
export function registerChats(): void {
  registerReplayPolicy('chats', chatReplayPolicy);
}
