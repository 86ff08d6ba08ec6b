import { registerTimer } from '../../jobs/timers.ts';
import { onUserGone } from '../../realtime/presence.ts';
import { fireAutoBreak, lockTimerUser, setPresence } from './service.ts';

/**
 * Registers what the presence module plugs into the infrastructure (modules/setup.ts): the auto-break timer,
 * and going offline when realtime finds a user with no socket left (after the grace period).
 */
export function registerPresence(): void {
  registerTimer('auto_break', { lock: lockTimerUser, fire: fireAutoBreak });
  onUserGone((app, user) => setPresence(app, user, 'offline', 'disconnect'));
}
