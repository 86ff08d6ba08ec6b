import { onEvent } from '../../realtime/consumers.ts';
import { onChat, onMessage } from './notify.ts';

/**
 * Web push plugs in as event consumers (after the commit, on the instance that committed): a new chat for an
 * operator and a client's message are queued for the operators with no tab open, and the consumer returns at once.
 */
export function registerPush(): void {
  onEvent('chat.created', onChat);
  onEvent('chat.assigned', onChat);
  onEvent('chat.transferred', onChat);
  onEvent('message.created', onMessage);
}
